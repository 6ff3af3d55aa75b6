import Foundation
import ModelGraph
import ModelGraphCore
import Testing

@testable import ModelGraphPostgreSQL

extension PostgreSQLStoreSuites.FetchedResidency {
  /// A context with unsaved changes whose lookups and counts read data another container
  /// saved meanwhile.
  @Suite("Unsaved changes and saves made elsewhere") struct FetchedElsewhere {
    /// The member scored `score`, fetched in `context`.
    static func member(_ score: Int, in context: ModelContext) throws -> Member {
      try #require(
        try context.fetch(FetchDescriptor<Member>(predicate: #Predicate { $0.score == score }))
          .first)
    }

    /// The team named `name`, fetched in `context`.
    static func team(_ name: String, in context: ModelContext) throws -> Team {
      try #require(
        try context.fetch(FetchDescriptor<Team>(predicate: #Predicate { $0.name == name })).first)
    }

    /// The score and team of member `name` in the database.
    static func stored(_ name: String, at url: URL) throws -> [String?] {
      try TestServer.query(
        "SELECT m.score || ' ' || COALESCE(t.name, '-') FROM \"Member\" m "
          + "LEFT JOIN \"Team\" t ON t.id = m.team WHERE m.name = '\(name)'", at: url)
    }

    /// A fetched-mode context whose unsaved change to `p3` collides with a save of another
    /// container (score 30 here, 31 there; with `teams`, team t1 here, t2 there), and the
    /// identifier of `p7`, which that context has not read.
    static func collided(_ url: URL, teams: Bool) throws -> (
      ModelContext, Member, PersistentIdentifier
    ) {
      try FetchedUnsaved.seedDistinct(url)
      let other = ModelContext(try TestServer.container(teamTypes, at: url))
      let wanted = try member(7, in: other).persistentModelID
      let partial = ModelContext(
        try TestServer.container(
          teamTypes, at: PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url)))
      let mine = try member(3, in: partial)
      mine.score = 30
      if teams { mine.team = try team("t1", in: partial) }
      let theirs = try member(3, in: other)
      theirs.score = 31
      if teams { theirs.team = try team("t2", in: other) }
      try other.save()
      return (partial, mine, wanted)
    }

    @Test("model(for:) finds an object although the context's changes collide; save reports it")
    func lookupDespiteConflict() throws {
      let url = try TestServer.freshURL()
      let (partial, mine, wanted) = try Self.collided(url, teams: false)
      // Loading p7 takes in the other save, which collides with the change to p3.
      let found = try #require(partial.model(for: wanted) as? Member)
      #expect(found.score == 7)
      #expect(mine.score == 30)
      #expect(partial.hasChanges)
      // The collision refuses the save, as it would have without the lookup.
      let refused = #expect(throws: ModelError.self) { try partial.save() }
      #expect(refused?.code == .conflict)
      #expect(refused?.conflicts.map(\.property) == ["score"])
      #expect(refused?.conflicts.first?.mine == .int(30))
      #expect(refused?.conflicts.first?.theirs == .int(31))
      #expect(try Self.stored("p3", at: url) == ["31 -"])
      #expect(mine.score == 30)
      // Refused again while the policy rejects; settled once it does not.
      #expect(throws: ModelError.self) { try partial.save() }
      partial.mergePolicy = .lastWriterWins
      try partial.save()
      #expect(try Self.stored("p3", at: url) == ["30 -"])
      #expect(!partial.hasChanges)
    }

    @Test("a collision deferred by model(for:) settles at the save by the policy then in force")
    func deferredStoreWins() throws {
      let url = try TestServer.freshURL()
      let (partial, mine, wanted) = try Self.collided(url, teams: true)
      #expect(partial.model(for: wanted) != nil)
      // The context still sees its own values.
      #expect(mine.score == 30)
      #expect(mine.team?.name == "t1")
      partial.mergePolicy = .storeWins
      try partial.save()
      #expect(try Self.stored("p3", at: url) == ["31 t2"])
      #expect(mine.score == 31)
      #expect(mine.team?.name == "t2")
      #expect(try Self.team("t1", in: partial).members.isEmpty)
      #expect(try Self.team("t2", in: partial).members.map(\.name) == ["p3"])
    }

    @Test("a rollback drops a collision deferred by model(for:)")
    func deferredRolledBack() throws {
      let url = try TestServer.freshURL()
      let (partial, mine, wanted) = try Self.collided(url, teams: false)
      #expect(partial.model(for: wanted) != nil)
      partial.rollback()
      #expect(mine.score == 31)
      mine.score = 32
      try partial.save()
      #expect(try Self.stored("p3", at: url) == ["32 -"])
    }

    @Test("a collision deferred by model(for:) refuses saves while its change remains")
    func deferredChangeKept() throws {
      let url = try TestServer.freshURL()
      let (partial, mine, wanted) = try Self.collided(url, teams: false)
      #expect(partial.model(for: wanted) != nil)
      partial.insert(Member(name: "new", score: 1))
      // The change to p3 is still there: so is its collision, with an unrelated change too.
      let refused = #expect(throws: ModelError.self) { try partial.save() }
      #expect(refused?.code == .conflict)
      #expect(refused?.conflicts.map(\.property) == ["score"])
      #expect(try Self.stored("new", at: url) == [])
      #expect(mine.score == 30)
    }

    /// A context keeping only fetched objects that deleted team t1 (last writer wins), after
    /// another container added "joined" (score 100) to t1: the next move replays the
    /// deletion's cascade over "joined".
    static func cascadeOntoJoined() throws -> ModelContext {
      let url = try TestServer.freshURL()
      try FetchedUnsaved.seedDistinct(url)
      let partial = ModelContext(
        try TestServer.container(
          teamTypes, at: PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url)))
      // The deletion goes ahead over what the team holds by then.
      partial.mergePolicy = .lastWriterWins
      partial.delete(try team("t1", in: partial))
      let elsewhere = ModelContext(try TestServer.container(teamTypes, at: url))
      let joined = Member(name: "joined", score: 100)
      elsewhere.insert(joined)
      joined.team = try team("t1", in: elsewhere)
      try elsewhere.save()
      return partial
    }

    @Test("fetchCount agrees with fetch when the move cascades a deletion onto a new object")
    func countAfterCascadeReplayed() throws {
      let partial = try Self.cascadeOntoJoined()
      let above = FetchDescriptor<Member>(predicate: #Predicate { $0.score > 20 })
      // p21…p39 in the database; "joined" is deleted by the cascade the move replays.
      let counted = try partial.fetchCount(above)
      let fetched = try partial.fetch(above)
      #expect(!fetched.contains { $0.name == "joined" })
      #expect(fetched.count == 19)
      #expect(counted == fetched.count)
      #expect(try partial.fetchCount(above) == 19)
    }

    @Test("a fetch window holds its objects when the move cascades a deletion onto a new one")
    func windowAfterCascadeReplayed() throws {
      let partial = try Self.cascadeOntoJoined()
      var top = FetchDescriptor<Member>(
        predicate: #Predicate { $0.score > 20 }, sortBy: [SortDescriptor(\.score, order: .reverse)])
      top.fetchLimit = 5
      // The SQL's window takes "joined" (score 100), which the move then deletes here.
      #expect(try partial.fetch(top).map(\.name) == ["p39", "p38", "p37", "p36", "p35"])
    }

    @Test("fetchCount with unsaved changes moves to the data it counted, as fetch does")
    func countMovesAsFetch() throws {
      let url = try TestServer.freshURL()
      try FetchedUnsaved.seedDistinct(url)
      let partial = ModelContext(
        try TestServer.container(
          teamTypes, at: PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url)))
      let changed = try Self.member(3, in: partial)
      let other = try Self.member(5, in: partial)
      changed.score = 30
      let elsewhere = ModelContext(try TestServer.container(teamTypes, at: url))
      try Self.member(5, in: elsewhere).score = 55
      try elsewhere.save()
      let above = FetchDescriptor<Member>(predicate: #Predicate { $0.score > 20 })
      // p5 (saved elsewhere) and p3 (unsaved here) are counted with p21…p39: what the context
      // reads afterwards agrees with the count.
      #expect(try partial.fetchCount(above) == 21)
      #expect(other.score == 55)
      #expect(changed.score == 30)
      #expect(try partial.fetch(above).count == 21)
    }

    @Test("fetchCount whose unsaved changes collide with a save made elsewhere is refused")
    func countConflict() throws {
      let url = try TestServer.freshURL()
      let (partial, mine, _) = try Self.collided(url, teams: false)
      let above = FetchDescriptor<Member>(predicate: #Predicate { $0.score > 20 })
      let counted = #expect(throws: ModelError.self) { try partial.fetchCount(above) }
      #expect(counted?.code == .conflict)
      let fetched = #expect(throws: ModelError.self) { try partial.fetch(above) }
      #expect(fetched?.code == .conflict)
      #expect(mine.score == 30)
    }

    @Test("a fetch asks a custom merge policy once per collision, and the context follows it")
    func customPolicyAskedOnce() throws {
      let url = try TestServer.freshURL()
      let (partial, mine, _) = try Self.collided(url, teams: false)
      let asked = Locked<[String?]>([])
      partial.mergePolicy = .custom { conflict in
        asked.withLock { $0.append(conflict.property) }
        return .keepStore
      }
      let above = FetchDescriptor<Member>(predicate: #Predicate { $0.score > 20 })
      let names = try partial.fetch(above).map(\.name)
      // The move is tried on a copy of the session first; the context's own move reuses the
      // answer instead of asking again.
      #expect(asked.withLock { $0 } == ["score"])
      #expect(mine.score == 31)
      #expect(names.sorted() == (["p3"] + (21..<40).map { "p\($0)" }).sorted())
    }
  }
}
