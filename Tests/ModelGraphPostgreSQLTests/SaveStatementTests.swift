import Foundation
import ModelGraph
import Synchronization
import Testing

@testable import ModelGraphPostgreSQL

/// The statements a hook sees, kept for a test to read.
final class SeenStatements: Sendable {
  private let texts = Mutex<[String]>([])

  /// Every batch seen, in order.
  var all: [String] { texts.withLock { $0 } }

  /// The hook for ``PostgreSQLStore/injectFault``: records each batch, runs it unchanged.
  var hook: @Sendable (String) -> PostgreSQLFault? {
    { sql in
      self.texts.withLock { $0.append(sql) }
      return nil
    }
  }
}

extension PostgreSQLStoreSuites {
  /// A save as one statement: the version check, the change log, the signal and every row.
  @Suite("Save statement") struct SaveStatement {
    @Test(
      "a save that inserts, updates and deletes objects of three classes is one statement and commits whole"
    )
    func mixedSaveIsOneStatement() throws {
      let url = try TestServer.freshURL()
      let container = try TestServer.container(teamTypes, at: url)
      let store = try #require(container.store.persistence as? PostgreSQLStore)
      let context = ModelContext(container)
      let ada = Member(name: "Ada", score: 1)
      let old = Tag(label: "old")
      context.insert(Team(name: "A"))
      context.insert(ada)
      context.insert(old)
      try context.save()
      let version = try #require(
        try TestServer.query("SELECT version FROM mg_state", at: url).first ?? nil)
      let seen = SeenStatements()
      store.injectFault = seen.hook
      let team = Team(name: "B")
      let bo = Member(name: "Bo", score: 2)
      bo.team = team
      context.insert(team)
      context.insert(bo)
      ada.score = 5
      context.delete(old)
      try context.save()
      store.injectFault = nil
      let saves = seen.all.filter(OneFault.isSave)
      #expect(saves.count == 1)
      // One statement, starting with the version check.
      #expect(saves.first?.hasPrefix("WITH s AS (UPDATE mg_state ") == true)
      #expect(saves.first?.split(separator: "\n").count == 1)
      #expect(
        try TestServer.query("SELECT name FROM \"Team\" ORDER BY name", at: url) == ["A", "B"])
      #expect(
        try TestServer.query("SELECT score FROM \"Member\" ORDER BY name", at: url) == ["5", "2"])
      #expect(try TestServer.query("SELECT count(*) FROM \"Tag\"", at: url) == ["0"])
      let next = String((Int(version) ?? 0) + 1)
      #expect(try TestServer.query("SELECT version FROM mg_state", at: url) == [next])
      // The change log names the 2 new objects, the updated one and the deleted one.
      #expect(
        try TestServer.query(
          "SELECT cardinality(ids) FROM mg_log WHERE version = \(next)", at: url) == ["4"])
      let other = ModelContext(try TestServer.container(teamTypes, at: url))
      let members = try other.fetch(FetchDescriptor<Member>(sortBy: [SortDescriptor(\.name)]))
      #expect(members.map(\.score) == [5, 2])
      #expect(members.last?.team?.name == "B")
      #expect(try other.fetch(FetchDescriptor<Tag>()).isEmpty)
    }

    /// A database holding one member, and the connection, identifier and version of it.
    private func savedMember() throws -> (URL, PostgreSQLConnection, id: String, version: String) {
      let url = try TestServer.freshURL()
      let context = ModelContext(try TestServer.container(teamTypes, at: url))
      context.insert(Member(name: "Ada", score: 1))
      try context.save()
      let id = try #require(try TestServer.query("SELECT id FROM \"Member\"", at: url).first)
      let version = try #require(
        try TestServer.query("SELECT version FROM mg_state", at: url).first)
      return (url, try PostgreSQLConnection(url.absoluteString), id ?? "", version ?? "")
    }

    /// The save statement updating the member's score (its row at `rowBase`) and inserting a
    /// tag, on a database at `base`, by a store whose listener saw `registrations`.
    private func save(
      id: String, base: String, rowBase: String, new: String, registrations: String = "0"
    ) -> [PostgreSQLStatement] {
      let update = PostgreSQLStatement(
        PostgreSQLStore.updateRowText(
          SQLMapping.table("Member"), columns: [SQLMapping.quoted("score")]),
        ["7", new, id, rowBase])
      let insert = PostgreSQLStatement(
        PostgreSQLStore.insertText(
          SQLMapping.table("Tag"), columns: ["id", "_version", SQLMapping.quoted("label")],
          rows: 1), ["99", new, "new"])
      let text = PostgreSQLStore.saveText(writes: [update], insertions: [insert])
      let parameters: [String?] =
        [base, PostgreSQLStore.commitToken(), "{\(id),99}", "modelgraph.test", "0", registrations]
        + update.parameters + insert.parameters + ["Member/0"]
      return [PostgreSQLStatement(text, parameters)]
    }

    @Test(
      "a save statement on a stale base fails with MG001, one on a changed row with MG002; neither leaves anything"
    )
    func refusedSaveLeavesNothing() throws {
      let (url, connection, id, version) = try savedMember()
      let next = String((Int(version) ?? 0) + 1)
      func unchanged() throws {
        #expect(try TestServer.query("SELECT version FROM mg_state", at: url) == [version])
        #expect(try TestServer.query("SELECT score FROM \"Member\"", at: url) == ["1"])
        #expect(try TestServer.query("SELECT count(*) FROM \"Tag\"", at: url) == ["0"])
        #expect(
          try TestServer.query("SELECT count(*) FROM mg_log WHERE version > \(version)", at: url)
            == ["0"])
      }
      let stale = #expect(throws: PostgreSQLError.self) {
        try connection.runPipelined(
          save(id: id, base: "0", rowBase: version, new: next))
      }
      #expect(stale?.sqlState == PostgreSQLSchema.behind)
      try unchanged()
      // The row is newer than the save's base, though the database's version is not.
      let changed = #expect(throws: PostgreSQLError.self) {
        try connection.runPipelined(save(id: id, base: version, rowBase: "0", new: next))
      }
      #expect(changed?.sqlState == PostgreSQLSchema.rowChanged)
      #expect(changed?.message.contains("Member/0") == true)
      try unchanged()
      try connection.runPipelined(save(id: id, base: version, rowBase: version, new: next))
      #expect(try TestServer.query("SELECT version FROM mg_state", at: url) == [next])
      #expect(try TestServer.query("SELECT score FROM \"Member\"", at: url) == ["7"])
      #expect(try TestServer.query("SELECT label FROM \"Tag\"", at: url) == ["new"])
    }

    @Test(
      "a listener that registers while a save statement waits for mg_state is signalled, though the statement's snapshot is older"
    )
    func registrationDuringSaveSignals() throws {
      let (url, connection, id, version) = try savedMember()
      let next = String((Int(version) ?? 0) + 1)
      let listener = try PostgreSQLConnection(url.absoluteString)
      try listener.run("LISTEN \"modelgraph.test\"")
      // No listener is recorded: only the registration below can make the save signal.
      try listener.run("DELETE FROM mg_listeners")
      let seen = try #require(
        try TestServer.query("SELECT registrations FROM mg_state", at: url).first ?? nil)
      let registering = try PostgreSQLConnection(url.absoluteString)
      try registering.run("BEGIN; UPDATE mg_state SET registrations = registrations + 1")
      let failure = Mutex<String?>(nil)
      let done = DispatchSemaphore(value: 0)
      let statements = save(
        id: id, base: version, rowBase: version, new: next, registrations: seen)
      // Used by the thread alone until it signals.
      nonisolated(unsafe) let saver = connection
      let saving = Thread {
        do {
          try saver.runPipelined(statements)
        } catch {
          failure.withLock { $0 = "\(error)" }
        }
        done.signal()
      }
      saving.start()
      // The save's statement has begun (its snapshot taken) and waits for mg_state's row.
      let pid = connection.backendPID
      #expect(
        eventually {
          (try? TestServer.query(
            "SELECT wait_event_type FROM pg_stat_activity WHERE pid = \(pid)", at: url))
            == ["Lock"]
        })
      try registering.run("COMMIT")
      done.wait()
      #expect(failure.withLock { $0 } == nil)
      #expect(try TestServer.query("SELECT version FROM mg_state", at: url) == [next])
      #expect(
        eventually {
          ((try? listener.drainNotifications()) ?? []).contains(connection.backendPID)
        })
    }
  }
}
