import Foundation
import ModelGraph
import ModelGraphCore
import Testing

@testable import ModelGraphPostgreSQL

extension PostgreSQLStoreSuites {
  /// The change log (`mg_log`) is pruned, and a store behind what it still holds reads its
  /// objects again.
  @Suite("Change log") struct ChangeLog {
    /// A store on `url` that does not listen: it sees other saves only when it catches up.
    static func deafStore(_ url: URL, residency: String? = nil) throws -> (PostgreSQLStore, Store) {
      let opened = try PostgreSQLStore.open(
        url: url.absoluteString + (residency.map { "&residency=\($0)" } ?? ""))
      let store = opened.stored.map { Store(loading: $0) } ?? Store()
      opened.store.attach(to: store, listening: false)
      return (opened.store, store)
    }

    @Test("saves prune the rows every live listener has consumed")
    func consumed() throws {
      let url = try TestServer.freshURL()
      let writer = try TestServer.container(teamTypes, at: url)
      let reader = try TestServer.container(teamTypes, at: url)
      let persistence = try #require(writer.store.persistence as? PostgreSQLStore)
      let other = try #require(reader.store.persistence as? PostgreSQLStore)
      #expect(eventually { persistence.isListening && other.isListening })
      persistence.pruneEvery = 1
      let context = ModelContext(writer)
      let member = Member(name: "a", score: 0)
      context.insert(member)
      for score in 1...5 {
        member.score = score
        try context.save()
      }
      // Both listeners record that they hold version 5.
      #expect(
        try eventually {
          try TestServer.query("SELECT min(applied) FROM mg_listeners", at: url) == ["5"]
            && TestServer.query("SELECT count(*) FROM mg_listeners", at: url) == ["2"]
        })
      member.score = 6
      try context.save()
      // Rows 1 to 5 were consumed by both; 6 is not yet.
      #expect(try TestServer.query("SELECT version FROM mg_log", at: url) == ["6"])
      // A listener that ended no longer holds the log back.
      reader.store.persistence?.close()
      #expect(
        try eventually {
          try TestServer.query(
            "SELECT count(*) FROM mg_listeners WHERE pid IN (SELECT pid FROM pg_stat_activity)",
            at: url) == ["1"]
        })
      member.score = 7
      try context.save()
      #expect(try TestServer.query("SELECT count(*) FROM mg_listeners", at: url) == ["1"])
    }

    @Test("saves prune rows older than the retention; a store behind them reads everything again")
    func pruning() throws {
      let url = try TestServer.freshURL()
      let writer = try TestServer.container(teamTypes, at: url)
      let context = ModelContext(writer)
      let kept = Member(name: "kept", score: 1)
      let gone = Member(name: "gone", score: 2)
      context.insert(kept)
      context.insert(gone)
      try context.save()
      let (behind, behindStore) = try Self.deafStore(url)
      defer { behind.close() }
      let (partial, partialStore) = try Self.deafStore(url, residency: "fetched")
      defer { partial.close() }
      // The fetched-only store holds `kept` alone.
      let member = try #require(partialStore.catalog.entity(named: "Member"))
      _ = try partial.makeResident(
        for: QueryRequest(
          entity: member.index,
          predicate: .comparison(.attribute("name"), .equal, .constant(.string("kept")))))
      #expect(partialStore.version.tables[member.index].liveCount == 1)

      let persistence = try #require(writer.store.persistence as? PostgreSQLStore)
      persistence.logRetention = 0
      persistence.pruneEvery = 1
      kept.score = 10
      context.delete(gone)
      context.insert(Member(name: "new", score: 3))
      try context.save()
      kept.score = 11
      try context.save()
      let rows = try TestServer.query("SELECT count(*) FROM mg_log", at: url)
      #expect(rows == ["1"])

      // Both stores missed pruned saves: they read again what they hold (and, with every
      // object in memory, everything).
      try behind.catchUp()
      let all = behindStore.version.tables[member.index]
      #expect(all.liveCount == 2)
      try partial.catchUp()
      let resident = partialStore.version.tables[member.index]
      #expect(resident.liveCount == 1)
      #expect(behind.appliedVersion == persistence.appliedVersion)
      #expect(partial.appliedVersion == persistence.appliedVersion)
      let reader = ModelContext(
        try ModelContainer(
          for: teamTypes,
          configurations: [
            ModelConfiguration(url: URL(string: url.absoluteString + "&residency=fetched")!)
          ]))
      #expect(
        try reader.fetch(FetchDescriptor<Member>(sortBy: [SortDescriptor(\.name)])).map(\.score)
          == [11, 3])
    }
  }
}
