import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

extension PostgreSQLStoreSuites.FetchedResidency {
  /// A fetch in a context with unsaved changes sees them, in both modes alike.
  @Suite("Fetches with unsaved changes") struct FetchedUnsaved {
    /// The same unsaved changes, made in `context`: scores moved into and out of predicates
    /// and windows, deletions at the top of sorts, inserts, team changes and a renamed team.
    static func change(_ context: ModelContext) throws {
      func members(_ predicate: Predicate<Member>) throws -> [Member] {
        try context.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.name)]))
      }
      // Out of `score > 3`, and to the bottom of the score sorts.
      for member in try members(#Predicate { $0.score == 9 }).prefix(2) { member.score = 0 }
      // Into the top of the score sorts, and to the front of the name sorts.
      for member in try members(#Predicate { $0.score == 1 }) {
        member.score = 20
        member.name = "a" + member.name
      }
      // Deleted from the top.
      for member in try members(#Predicate { $0.score == 8 }) { context.delete(member) }
      // Off a team, onto one.
      for member in try members(#Predicate { $0.score == 5 && $0.team != nil }) {
        member.team = nil
      }
      let blue = try #require(
        try context.fetch(FetchDescriptor<Team>(predicate: #Predicate { $0.name == "Blue" })).first)
      for member in try members(#Predicate { $0.score == 6 }) { member.team = blue }
      // A related object changes: every member of the team moves out of "on a team".
      try context.fetch(FetchDescriptor<Team>(predicate: #Predicate { $0.name == "Red" })).first?
        .name = "Rouge"
      // New objects, some at the top of sorts, one deleted again.
      for index in 0..<6 {
        let member: Member =
          index % 3 == 0
          ? Captain(name: "new c\(index)", since: 1990 + index)
          : Member(name: "new m\(index)", score: index * 4)
        member.rating = Double(index) / 2
        member.active = index % 2 == 1
        member.joined = Date(timeIntervalSinceReferenceDate: Double(index) * 1500)
        member.team = index == 2 ? blue : nil
        context.insert(member)
        if index == 4 { context.delete(member) }
      }
    }

    /// An object as both modes can name it: saved ones by identifier, new ones by name.
    static func label(_ member: Member) -> String {
      member.name.hasPrefix("new") ? member.name : "\(member.persistentModelID)"
    }

    /// The descriptors of the differential test, with a few more that the changes reach.
    static func descriptors() -> [(String, FetchDescriptor<Member>)] {
      var all = PostgreSQLStoreSuites.FetchedResidency.descriptors()
      var deep = FetchDescriptor<Member>(sortBy: [SortDescriptor(\.score, order: .reverse)])
      deep.fetchOffset = 2
      deep.fetchLimit = 4
      all.append(("a window of top scores", deep))
      var shallow = deep
      shallow.includesSubclasses = false
      all.append(("a window of top scores, members only", shallow))
      var first = FetchDescriptor<Member>(predicate: #Predicate { $0.score < 7 })
      first.fetchLimit = 3
      all.append(("the first low scores, unsorted", first))
      var teamless = FetchDescriptor<Member>(
        predicate: #Predicate { $0.team == nil }, sortBy: [SortDescriptor(\.score)])
      teamless.fetchLimit = 4
      all.append(("lowest scores on no team", teamless))
      var saved = FetchDescriptor<Member>(sortBy: [SortDescriptor(\.score, order: .reverse)])
      saved.fetchLimit = 5
      saved.includePendingChanges = false
      all.append(("top saved scores", saved))
      return all
    }

    @Test("fetches and counts see unsaved changes as in full mode, and the save still works")
    func differential() throws {
      let url = try TestServer.freshURL()
      try PostgreSQLStoreSuites.FetchedResidency.seed(url)
      let full = ModelContext(try TestServer.container(teamTypes, at: url))
      let partialContainer = try TestServer.container(
        teamTypes, at: PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url))
      let partial = ModelContext(partialContainer)
      try Self.change(full)
      try Self.change(partial)
      for (name, descriptor) in Self.descriptors() {
        let expected = try full.fetch(descriptor).map(Self.label)
        // Counted first, with only what the changes brought into memory.
        #expect(try partial.fetchCount(descriptor) == expected.count, "\(name)")
        #expect(try partial.fetch(descriptor).map(Self.label) == expected, "\(name)")
        let fresh = ModelContext(partialContainer)
        try Self.change(fresh)
        #expect(try fresh.fetch(descriptor).map(Self.label) == expected, "\(name)")
        #expect(try fresh.fetchCount(descriptor) == expected.count, "\(name)")
      }
      let unchanged = ModelContext(partialContainer)
      #expect(
        try unchanged.fetch(FetchDescriptor<Member>(predicate: #Predicate { $0.score == 20 }))
          .isEmpty)
      try partial.save()
      let after = ModelContext(try TestServer.container(teamTypes, at: url))
      let everything = FetchDescriptor<Member>(sortBy: [
        SortDescriptor(\.score), SortDescriptor(\.name),
      ])
      #expect(
        try after.fetch(everything).map { "\($0.name) \($0.score) \($0.team?.name ?? "-")" }
          == (try full.fetch(everything).map { "\($0.name) \($0.score) \($0.team?.name ?? "-")" }))
    }

    /// Members with distinct scores 0..<40 (every fifth a captain), on no team; teams with
    /// tags that do not know their teams.
    static func seedDistinct(_ url: URL) throws {
      let context = ModelContext(try TestServer.container(teamTypes, at: url))
      for index in 0..<40 {
        let member: Member =
          index % 5 == 0
          ? Captain(name: "p\(index)", since: index) : Member(name: "p\(index)", score: index)
        member.score = index
        context.insert(member)
      }
      for index in 0..<6 {
        let team = Team(name: "t\(index)")
        context.insert(team)
        team.tags = [Tag(label: "l\(index)")]
      }
      try context.save()
    }

    /// Changes that push objects the SQL window holds in the database out of the context's
    /// window, and pull others in.
    static func changeDistinct(_ context: ModelContext) throws {
      func member(_ score: Int) throws -> Member {
        try #require(
          try context.fetch(FetchDescriptor<Member>(predicate: #Predicate { $0.score == score }))
            .first)
      }
      for score in [39, 37, 36] { context.delete(try member(score)) }
      try member(38).score = -1
      try member(35).score = -2
      try member(3).score = 50
      for score in [60, 61] { context.insert(Member(name: "new \(score)", score: score)) }
      let tag = try #require(
        try context.fetch(FetchDescriptor<Tag>(predicate: #Predicate { $0.label == "l4" })).first)
      tag.label = "hot"
    }

    @Test(
      "windows past the rows the context changed, and a test through relationships the changed object cannot be reached back from"
    )
    func windowsPastChanges() throws {
      let url = try TestServer.freshURL()
      try Self.seedDistinct(url)
      let fullContainer = try TestServer.container(teamTypes, at: url)
      let partialContainer = try TestServer.container(
        teamTypes, at: PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url))
      var descriptors: [(String, FetchDescriptor<Member>)] = []
      for (offset, limit) in [(0, 4), (2, 5), (6, 3)] {
        for reverse in [true, false] {
          var sorted = FetchDescriptor<Member>(
            sortBy: [SortDescriptor(\.score, order: reverse ? .reverse : .forward)])
          (sorted.fetchOffset, sorted.fetchLimit) = (offset, limit)
          descriptors.append(("by score \(reverse) \(offset) \(limit)", sorted))
          var shallow = sorted
          shallow.includesSubclasses = false
          descriptors.append(("members by score \(reverse) \(offset) \(limit)", shallow))
          var matching = sorted
          matching.predicate = #Predicate { $0.score > 30 || $0.score < 5 }
          descriptors.append(("some by score \(reverse) \(offset) \(limit)", matching))
        }
        var unsorted = FetchDescriptor<Member>(predicate: #Predicate { $0.score >= 0 })
        (unsorted.fetchOffset, unsorted.fetchLimit) = (offset, limit)
        descriptors.append(("unsorted \(offset) \(limit)", unsorted))
      }
      for (name, descriptor) in descriptors {
        let full = ModelContext(fullContainer)
        try Self.changeDistinct(full)
        let expected = try full.fetch(descriptor).map(Self.label)
        let counting = ModelContext(partialContainer)
        try Self.changeDistinct(counting)
        #expect(try counting.fetchCount(descriptor) == expected.count, "\(name)")
        let partial = ModelContext(partialContainer)
        try Self.changeDistinct(partial)
        #expect(try partial.fetch(descriptor).map(Self.label) == expected, "\(name)")
      }
      let tagged = FetchDescriptor<Team>(
        predicate: #Predicate { $0.tags.contains { $0.label == "hot" } })
      let full = ModelContext(fullContainer)
      try Self.changeDistinct(full)
      let partial = ModelContext(partialContainer)
      try Self.changeDistinct(partial)
      #expect(try full.fetch(tagged).map(\.name) == ["t4"])
      #expect(try partial.fetch(tagged).map(\.name) == ["t4"])
      #expect(try partial.fetchCount(tagged) == 1)
    }

    @Test("model(for:) with unsaved changes reads an object not in memory, keeping them")
    func identifiedWithChanges() throws {
      let url = try TestServer.freshURL()
      try Self.seedDistinct(url)
      let wanted = try ModelContext(TestServer.container(teamTypes, at: url)).fetch(
        FetchDescriptor<Member>(predicate: #Predicate { $0.score == 7 }))[0].persistentModelID
      let partial = ModelContext(
        try TestServer.container(
          teamTypes, at: PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url)))
      try Self.changeDistinct(partial)
      let found = try #require(partial.model(for: wanted) as? Member)
      #expect(found.score == 7)
      found.score = 70
      try partial.save()
      #expect(
        try TestServer.query("SELECT score FROM \"Member\" ORDER BY score DESC LIMIT 4", at: url)
          == ["70", "61", "60", "50"])
    }

    @Test("a fetch whose unsaved changes collide with a save made elsewhere is refused")
    func conflict() throws {
      let url = try TestServer.freshURL()
      try PostgreSQLStoreSuites.FetchedResidency.seed(url, members: 10)
      let partial = ModelContext(
        try TestServer.container(
          teamTypes, at: PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url)))
      let mine = try #require(
        try partial.fetch(FetchDescriptor<Member>(predicate: #Predicate { $0.score == 3 })).first)
      mine.score = 30
      let other = ModelContext(try TestServer.container(teamTypes, at: url))
      let theirs = try #require(
        try other.fetch(FetchDescriptor<Member>(predicate: #Predicate { $0.score == 3 })).first)
      theirs.score = 31
      try other.save()
      // The fetch reads the newest data, which holds the other save.
      let refused = #expect(throws: ModelError.self) {
        try partial.fetch(FetchDescriptor<Member>())
      }
      #expect(refused?.code == .conflict)
      #expect(refused?.conflicts.count == 1)
      // The changes stay, and a rollback makes the context usable.
      #expect(mine.score == 30)
      partial.rollback()
      #expect(
        try partial.fetch(FetchDescriptor<Member>(predicate: #Predicate { $0.score == 31 })).count
          == 1)
    }
  }
}
