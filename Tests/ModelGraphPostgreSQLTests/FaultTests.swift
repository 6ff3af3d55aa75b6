import Foundation
import ModelGraph
import Synchronization
import Testing

@testable import ModelGraphPostgreSQL

/// Makes `fault` happen once, at the first statement `matches` accepts.
final class OneFault: Sendable {
  private let fired = Atomic<Bool>(false)
  private let fault: PostgreSQLFault
  private let matches: @Sendable (String) -> Bool

  init(_ fault: PostgreSQLFault, when matches: @escaping @Sendable (String) -> Bool) {
    self.fault = fault
    self.matches = matches
  }

  /// Whether the fault happened.
  var hasFired: Bool { fired.load(ordering: .relaxed) }

  /// The hook for ``PostgreSQLStore/injectFault``.
  var hook: @Sendable (String) -> PostgreSQLFault? {
    { sql in
      guard self.matches(sql), !self.fired.exchange(true, ordering: .relaxed) else { return nil }
      return self.fault
    }
  }

  /// A save's batch: it begins with the version check (`mg_commit`, or the save statement's
  /// update of `mg_state`).
  static func isSave(_ sql: String) -> Bool {
    sql.hasPrefix("SELECT mg_commit(") || sql.hasPrefix("WITH s AS (UPDATE mg_state ")
  }
}

extension PostgreSQLStoreSuites {
  @Suite("Faults in the connection") struct Faults {
    /// A container with one saved team, whose listener has caught up (so only saves use the
    /// store's connection).
    private static func opened() throws -> (
      url: URL, container: ModelContainer, store: PostgreSQLStore, context: ModelContext
    ) {
      let url = try TestServer.freshURL()
      let container = try TestServer.container(teamTypes, at: url)
      let store = try #require(container.store.persistence as? PostgreSQLStore)
      let context = ModelContext(container)
      context.insert(Team(name: "Before"))
      try context.save()
      #expect(eventually { store.isListening })
      return (url, container, store, context)
    }

    private static func teamNames(_ url: URL) throws -> [String?] {
      try TestServer.query("SELECT name FROM \"Team\" ORDER BY name", at: url)
    }

    @Test("the reply to a COMMIT the server carried out is lost: the save succeeds, once")
    func lostReplyCommitted() throws {
      let (url, container, store, context) = try Self.opened()
      let fault = OneFault(.loseReplyAfterSending(committing: true), when: OneFault.isSave)
      store.injectFault = fault.hook
      let team = try #require(try context.fetch(FetchDescriptor<Team>()).first)
      team.name = "Renamed"
      context.insert(Team(name: "Kept"))
      try context.save()
      #expect(fault.hasFired)
      #expect(try Self.teamNames(url) == ["Kept", "Renamed"])
      // Published once: the container and a new one read the same two teams.
      let names = try context.fetch(FetchDescriptor<Team>()).map(\.name).sorted()
      #expect(names == ["Kept", "Renamed"])
      let other = ModelContext(try TestServer.container(teamTypes, at: url))
      #expect(try other.fetch(FetchDescriptor<Team>()).map(\.name).sorted() == names)
      let version = try TestServer.query("SELECT version FROM mg_state", at: url)
      #expect(version == [String(store.appliedVersion)])
      // The store goes on saving on a new connection.
      context.insert(Team(name: "After"))
      try context.save()
      #expect(try Self.teamNames(url) == ["After", "Kept", "Renamed"])
      _ = container
    }

    @Test(
      "a COMMIT lost before the server carried it out: the save throws connectionLost, nothing is applied, saving again writes it once"
    )
    func lostCommitNotCommitted() throws {
      let (url, container, store, context) = try Self.opened()
      let fault = OneFault(.loseReplyAfterSending(committing: false), when: OneFault.isSave)
      store.injectFault = fault.hook
      let before = store.appliedVersion
      let team = try #require(try context.fetch(FetchDescriptor<Team>()).first)
      team.name = "Renamed"
      context.insert(Team(name: "Kept"))
      let error = #expect(throws: PostgreSQLError.self) { try context.save() }
      #expect(error?.code == .connectionLost)
      #expect(fault.hasFired)
      #expect(try Self.teamNames(url) == ["Before"])
      #expect(store.appliedVersion == before)
      let other = ModelContext(try TestServer.container(teamTypes, at: url))
      #expect(try other.fetch(FetchDescriptor<Team>()).map(\.name) == ["Before"])
      try context.save()
      #expect(try Self.teamNames(url) == ["Kept", "Renamed"])
      #expect(
        try context.fetch(FetchDescriptor<Team>()).map(\.name).sorted() == ["Kept", "Renamed"])
      _ = container
    }

    @Test(
      "a save whose server process lingers after the connection broke is ended before the store decides: it is not applied, and stays so"
    )
    func lostReplyLingering() throws {
      let (url, container, store, context) = try Self.opened()
      // The save's server process blocks at its change-log row until this transaction ends.
      let blocker = try PostgreSQLConnection(url.absoluteString)
      try blocker.run("BEGIN; LOCK TABLE mg_log IN EXCLUSIVE MODE")
      let fault = OneFault(.loseReplyAfterSending(committing: true), when: OneFault.isSave)
      store.injectFault = fault.hook
      store.lingeringSessionWait = 0.2
      context.insert(Team(name: "Kept"))
      let error = #expect(throws: PostgreSQLError.self) { try context.save() }
      #expect(error?.code == .connectionLost)
      try blocker.run("COMMIT")
      // The process was ended before the store answered, so the save cannot land later.
      #expect(try Self.teamNames(url) == ["Before"])
      #expect(try TestServer.query("SELECT count(*) FROM mg_log", at: url) == ["1"])
      try context.save()
      #expect(try Self.teamNames(url) == ["Before", "Kept"])
      _ = container
    }

    @Test(
      "rows cannot be reserved: saving the new object is refused with connectionLost and writes nothing; inserted again, it saves"
    )
    func failedReservation() throws {
      let (url, container, store, context) = try Self.opened()
      let fault = OneFault(.loseConnectionBeforeSending) {
        $0.hasPrefix("INSERT INTO mg_entities (name, next_row)")
      }
      store.injectFault = fault.hook
      context.insert(Tag(label: "north"))
      let error = #expect(throws: PostgreSQLError.self) { try context.save() }
      #expect(fault.hasFired)
      #expect(error?.code == .connectionLost)
      #expect(error?.message.contains("not reserved") == true)
      #expect(try TestServer.query("SELECT label FROM \"Tag\"", at: url) == [])
      context.rollback()
      context.insert(Tag(label: "north"))
      try context.save()
      #expect(try TestServer.query("SELECT label FROM \"Tag\"", at: url) == ["north"])
      #expect(try context.fetch(FetchDescriptor<Tag>()).map(\.label) == ["north"])
      _ = container
    }

    @Test("a save writes only the columns and lists that changed; the rest stays as it was")
    func writesOnlyChanges() throws {
      let (url, container, _, context) = try Self.opened()
      let team = try #require(try context.fetch(FetchDescriptor<Team>()).first)
      let ada = Member(name: "Ada", score: 1)
      let tag = Tag(label: "north")
      context.insert(ada)
      context.insert(tag)
      team.members = [ada]
      team.tags = [tag]
      try context.save()
      let joins = try TestServer.query(
        "SELECT xmin::text FROM \"Team.tags\" UNION ALL SELECT xmin::text FROM \"Team.members\"",
        at: url)
      ada.score = 2
      team.name = "After"
      try context.save()
      // The join rows were not rewritten (the same transaction made them).
      #expect(
        try TestServer.query(
          "SELECT xmin::text FROM \"Team.tags\" UNION ALL SELECT xmin::text FROM \"Team.members\"",
          at: url) == joins)
      let other = ModelContext(try TestServer.container(teamTypes, at: url))
      let read = try #require(try other.fetch(FetchDescriptor<Team>()).first)
      #expect(read.name == "After")
      #expect(read.members.map(\.score) == [2])
      #expect(read.members.map(\.name) == ["Ada"])
      #expect(read.tags.map(\.label) == ["north"])
      // A list that changes is written anew.
      team.tags = []
      try context.save()
      #expect(try TestServer.query("SELECT target FROM \"Team.tags\"", at: url) == [])
      _ = container
    }
  }
}
