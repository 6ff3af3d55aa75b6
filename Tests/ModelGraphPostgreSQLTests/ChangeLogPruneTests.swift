import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

extension PostgreSQLStoreSuites {
  /// The change log's prune reads the log from its oldest row (`mg_state.pruned`), not from
  /// version 0: the rows every listener held back are still pruned once they are consumed.
  @Suite("Change log prune") struct ChangeLogPrune {
    /// The log's versions, ascending, joined by commas.
    static func logged(_ url: URL) throws -> [String?] {
      try TestServer.query(
        "SELECT coalesce(string_agg(version::text, ',' ORDER BY version), '') FROM mg_log",
        at: url)
    }

    /// Waits until the store's own listener has recorded that it holds `version`.
    static func recorded(_ version: Int, by pid: Int32, at url: URL) throws -> Bool {
      try eventually {
        try TestServer.query(
          "SELECT count(*) FROM mg_listeners WHERE pid = \(pid) AND applied >= \(version)",
          at: url) == ["1"]
      }
    }

    @Test("the prune mark follows the oldest row kept, and held-back rows go once consumed")
    func mark() throws {
      let url = try TestServer.freshURL()
      let writer = try TestServer.container(teamTypes, at: url)
      let persistence = try #require(writer.store.persistence as? PostgreSQLStore)
      #expect(eventually { persistence.isListening })
      persistence.pruneEvery = 1
      // A live session standing for a listener that holds only version 2.
      let holder = try PostgreSQLConnection(url.absoluteString)
      defer { holder.close() }
      try holder.run("INSERT INTO mg_listeners VALUES (pg_backend_pid(), 2)")
      let context = ModelContext(writer)
      let member = Member(name: "a", score: 0)
      context.insert(member)
      for score in 1...5 {
        member.score = score
        try context.save()
      }
      #expect(try Self.recorded(5, by: persistence.listenerPID, at: url))
      member.score = 6
      try context.save()
      // Version 6 pruned what every listener consumed: 1 and 2.
      #expect(try Self.logged(url) == ["3,4,5,6"])
      #expect(try TestServer.query("SELECT pruned FROM mg_state", at: url) == ["3"])

      try holder.run("UPDATE mg_listeners SET applied = 4 WHERE pid = pg_backend_pid()")
      member.score = 7
      try context.save()
      #expect(try Self.logged(url) == ["5,6,7"])
      #expect(try TestServer.query("SELECT pruned FROM mg_state", at: url) == ["5"])

      // The holder goes: the rows it held back go at the next prune.
      try holder.run("DELETE FROM mg_listeners WHERE pid = pg_backend_pid()")
      #expect(try Self.recorded(7, by: persistence.listenerPID, at: url))
      member.score = 8
      try context.save()
      #expect(try Self.logged(url) == ["8"])
      #expect(try TestServer.query("SELECT pruned FROM mg_state", at: url) == ["8"])
    }

    @Test("a database made before the prune mark gets it, and loses the unused log index")
    func earlierDatabase() throws {
      let url = try TestServer.freshURL()
      do {
        let first = try TestServer.container(teamTypes, at: url)
        let context = ModelContext(first)
        context.insert(Member(name: "a", score: 1))
        try context.save()
        first.store.persistence?.close()
      }
      // The layout of the earlier code: no mark, and an index on the commit time.
      let earlier = try PostgreSQLConnection(url.absoluteString)
      try earlier.run(
        "ALTER TABLE mg_state DROP COLUMN pruned; "
          + "CREATE INDEX mg_log_committed_at ON mg_log (committed_at)")
      earlier.close()

      let writer = try TestServer.container(teamTypes, at: url)
      #expect(try TestServer.query("SELECT pruned FROM mg_state", at: url) == ["0"])
      #expect(
        try TestServer.query(
          "SELECT count(*) FROM pg_indexes WHERE schemaname = current_schema() "
            + "AND indexname = 'mg_log_committed_at'", at: url) == ["0"])
      let persistence = try #require(writer.store.persistence as? PostgreSQLStore)
      persistence.logRetention = 0
      persistence.pruneEvery = 1
      let context = ModelContext(writer)
      let member = try #require(try context.fetch(FetchDescriptor<Member>()).first)
      member.score = 2
      try context.save()
      #expect(try Self.logged(url) == ["2"])
      #expect(try TestServer.query("SELECT pruned FROM mg_state", at: url) == ["2"])
    }
  }
}
