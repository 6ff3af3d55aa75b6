import Foundation
import Testing

@testable import ModelGraph
@testable import ModelGraphPostgreSQL

extension PostgreSQLStoreSuites.FetchedResidency {
  /// A fetch or count moves its context onto the version it read in the database, even when
  /// the store catches up with a save made elsewhere before the context moves.
  @Suite("A fetch lands on the version it read") struct FetchedMove {
    /// A fetched-mode context on a fresh seeded database (p0…p39, scored by their number),
    /// and a container elsewhere on the same database.
    static func contexts() throws -> (partial: ModelContext, elsewhere: ModelContext) {
      let url = try TestServer.freshURL()
      try FetchedUnsaved.seedDistinct(url)
      let partial = ModelContext(
        try TestServer.container(
          teamTypes, at: PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url)))
      return (partial, ModelContext(try TestServer.container(teamTypes, at: url)))
    }

    /// Makes the context's store, just before the context moves, catch up with a save
    /// elsewhere that scores member `name` 0.
    static func zeroBeforeMove(_ name: String, _ partial: ModelContext, _ elsewhere: ModelContext) {
      partial.fetchedStepHook = { step in
        guard step == .move else { return }
        partial.fetchedStepHook = nil
        let member = try #require(
          try elsewhere.fetch(FetchDescriptor<Member>(predicate: #Predicate { $0.name == name }))
            .first)
        member.score = 0
        try elsewhere.save()
        let store = try #require(partial.container.store.persistence as? PostgreSQLStore)
        try store.catchUp()
      }
    }

    /// The five highest scores above 20.
    static var top: FetchDescriptor<Member> {
      var top = FetchDescriptor<Member>(
        predicate: #Predicate { $0.score > 20 },
        sortBy: [SortDescriptor(\Member.score, order: .reverse)])
      top.fetchLimit = 5
      return top
    }

    @Test("a fetch answers at the version its SQL read when the store catches up meanwhile")
    func fetchWhileCatchingUp() throws {
      let (partial, elsewhere) = try Self.contexts()
      Self.zeroBeforeMove("p39", partial, elsewhere)
      // p39 was still 39 when the SQL read the database.
      #expect(try partial.fetch(Self.top).map { $0.name } == ["p39", "p38", "p37", "p36", "p35"])
      // The next fetch reads the newer version.
      #expect(try partial.fetch(Self.top).map { $0.name } == ["p38", "p37", "p36", "p35", "p34"])
    }

    @Test("a fetch with unsaved changes answers at the version its SQL read")
    func fetchWithChangesWhileCatchingUp() throws {
      let (partial, elsewhere) = try Self.contexts()
      let changed = try FetchedElsewhere.member(3, in: partial)
      changed.score = 50
      Self.zeroBeforeMove("p39", partial, elsewhere)
      #expect(try partial.fetch(Self.top).map { $0.name } == ["p3", "p39", "p38", "p37", "p36"])
      #expect(try partial.fetch(Self.top).map { $0.name } == ["p3", "p38", "p37", "p36", "p35"])
      #expect(changed.score == 50)
    }

    @Test("a count leaves the context at the version it counted")
    func countWhileCatchingUp() throws {
      let (partial, elsewhere) = try Self.contexts()
      let lowest = try FetchedElsewhere.member(21, in: partial)
      Self.zeroBeforeMove("p21", partial, elsewhere)
      #expect(
        try partial.fetchCount(FetchDescriptor<Member>(predicate: #Predicate { $0.score > 20 }))
          == 19)
      // What the context reads agrees with the count: p21 as counted.
      #expect(lowest.score == 21)
    }

    @Test("a count with unsaved changes leaves the context at the version it counted")
    func countWithChangesWhileCatchingUp() throws {
      let (partial, elsewhere) = try Self.contexts()
      let lowest = try FetchedElsewhere.member(21, in: partial)
      let changed = try FetchedElsewhere.member(3, in: partial)
      changed.score = 50
      Self.zeroBeforeMove("p21", partial, elsewhere)
      #expect(
        try partial.fetchCount(FetchDescriptor<Member>(predicate: #Predicate { $0.score > 20 }))
          == 20)
      #expect(lowest.score == 21)
      #expect(changed.score == 50)
    }
  }
}
