import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

extension PostgreSQLStoreSuites.FetchedResidency {
  /// A fetch with unsaved changes whose predicate reads related objects: the same answers as
  /// in full mode, without bringing the whole class into memory.
  @Suite("Fetches through relationships with unsaved changes") struct FetchedRelated {
    /// Teams t0…t15, team `i` with `i % 5` members `m<i>_<j>` scored `i + j` (every `j == 1`
    /// a captain).
    static func seed(_ url: URL) throws {
      let context = ModelContext(try TestServer.container(teamTypes, at: url))
      for index in 0..<16 {
        let team = Team(name: "t\(index)")
        context.insert(team)
        team.members = (0..<index % 5).map { member in
          let made: Member =
            member == 1
            ? Captain(name: "m\(index)_\(member)", since: 2000)
            : Member(name: "m\(index)_\(member)")
          made.score = index + member
          return made
        }
      }
      try context.save()
    }

    /// Unsaved changes on both sides of `Team.members`/`Member.team`: inserts, deletions,
    /// re-links from either side, a related object's value, a team's own value, a cascade.
    static func change(_ context: ModelContext) throws {
      func team(_ name: String) throws -> Team {
        try #require(
          try context.fetch(FetchDescriptor<Team>(predicate: #Predicate { $0.name == name })).first)
      }
      func member(_ name: String) throws -> Member {
        try #require(
          try context.fetch(FetchDescriptor<Member>(predicate: #Predicate { $0.name == name }))
            .first)
      }
      let joining = Member(name: "new a", score: 30)
      context.insert(joining)
      joining.team = try team("t1")
      context.delete(try member("m2_0"))
      try member("m3_0").team = try team("t4")
      let six = try team("t6")
      six.members = six.members + [try member("m7_0")]
      try member("m8_1").name = "hot"
      try team("t9").name = "renamed"
      context.delete(try team("t13"))
      try member("m14_2").score = 99
      let fresh = Team(name: "new team")
      context.insert(fresh)
      fresh.members = (0..<3).map { Member(name: "new m\($0)", score: 40 + $0) }
    }

    /// The team fetches compared, each with its sort and window.
    static func teamDescriptors() -> [(String, FetchDescriptor<Team>)] {
      var all: [(String, FetchDescriptor<Team>)] = []
      let byName = [SortDescriptor(\Team.name)]
      let crowded = #Predicate<Team> { $0.members.count > 2 }
      all.append(("crowded", FetchDescriptor(predicate: crowded, sortBy: byName)))
      for (offset, limit) in [(0, 2), (1, 3), (3, 2)] {
        var window = FetchDescriptor(predicate: crowded, sortBy: byName)
        (window.fetchOffset, window.fetchLimit) = (offset, limit)
        all.append(("crowded \(offset) \(limit)", window))
        var reversed = window
        reversed.sortBy = [SortDescriptor(\Team.name, order: .reverse)]
        all.append(("crowded reversed \(offset) \(limit)", reversed))
      }
      var saved = FetchDescriptor(predicate: crowded, sortBy: byName)
      (saved.fetchLimit, saved.includePendingChanges) = (3, false)
      all.append(("crowded, saved ones", saved))
      var unsorted = FetchDescriptor(predicate: crowded)
      unsorted.fetchLimit = 2
      all.append(("crowded unsorted", unsorted))
      all.append(
        ("hot", FetchDescriptor(predicate: #Predicate { $0.members.contains { $0.name == "hot" } }))
      )
      var high = FetchDescriptor<Team>(
        predicate: #Predicate { $0.members.contains { $0.score > 12 } },
        sortBy: [SortDescriptor(\Team.name, order: .reverse)])
      high.fetchLimit = 2
      all.append(("high scorers", high))
      all.append(
        ("empty", FetchDescriptor(predicate: #Predicate { $0.members.count == 0 }, sortBy: byName)))
      all.append(
        (
          "two or more, not t4",
          FetchDescriptor(
            predicate: #Predicate { $0.members.count > 1 && $0.name != "t4" }, sortBy: byName)
        ))
      all.append(
        (
          "all low",
          FetchDescriptor(
            predicate: #Predicate {
              $0.members.count > 0 && $0.members.allSatisfy { $0.score < 10 }
            },
            sortBy: byName)
        ))
      return all
    }

    /// The member fetches compared.
    static func memberDescriptors() -> [(String, FetchDescriptor<Member>)] {
      var all: [(String, FetchDescriptor<Member>)] = []
      let byName = [SortDescriptor(\Member.name)]
      all.append(
        (
          "renamed team",
          FetchDescriptor(predicate: #Predicate { $0.team?.name == "renamed" }, sortBy: byName)
        ))
      var four = FetchDescriptor<Member>(
        predicate: #Predicate { $0.team?.name == "t4" }, sortBy: byName)
      (four.fetchOffset, four.fetchLimit) = (1, 3)
      all.append(("team t4, a window", four))
      var savedFour = four
      savedFour.includePendingChanges = false
      all.append(("team t4, a window, saved ones", savedFour))
      var teamless = FetchDescriptor<Member>(
        predicate: #Predicate { $0.team == nil }, sortBy: [SortDescriptor(\Member.score)])
      teamless.fetchLimit = 4
      all.append(("no team", teamless))
      all.append(
        (
          "not t1",
          FetchDescriptor(predicate: #Predicate { $0.team?.name != "t1" }, sortBy: byName)
        ))
      var shallow = FetchDescriptor<Member>(
        predicate: #Predicate { $0.team?.name == "t6" }, sortBy: byName)
      shallow.includesSubclasses = false
      all.append(("team t6, members only", shallow))
      all.append(
        (
          "on a big team (two levels)",
          FetchDescriptor(
            predicate: #Predicate { ($0.team?.members.count ?? 0) > 3 }, sortBy: byName)
        ))
      return all
    }

    /// Compares every descriptor's fetch and count in fetched mode, from a cold container and
    /// with what earlier fetches loaded, with full mode's.
    func compare<T: PersistentModel>(
      _ descriptors: [(String, FetchDescriptor<T>)], url: URL, label: (T) -> String
    ) throws {
      let full = ModelContext(try TestServer.container(teamTypes, at: url))
      try Self.change(full)
      let warm = ModelContext(
        try TestServer.container(
          teamTypes, at: PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url)))
      try Self.change(warm)
      for (name, descriptor) in descriptors {
        let expected = try full.fetch(descriptor).map(label)
        let container = try TestServer.container(
          teamTypes, at: PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url))
        let counting = ModelContext(container)
        try Self.change(counting)
        #expect(try counting.fetchCount(descriptor) == expected.count, "\(name)")
        let cold = ModelContext(container)
        try Self.change(cold)
        #expect(try cold.fetch(descriptor).map(label) == expected, "\(name)")
        #expect(try warm.fetch(descriptor).map(label) == expected, "\(name)")
        #expect(try warm.fetchCount(descriptor) == expected.count, "\(name)")
      }
    }

    @Test("to-many counts and tests, to-one values: the same answers as full mode")
    func differential() throws {
      let url = try TestServer.freshURL()
      try Self.seed(url)
      try compare(Self.teamDescriptors(), url: url, label: \.name)
      try compare(Self.memberDescriptors(), url: url, label: \.name)
    }
  }
}
