import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

extension PostgreSQLStoreSuites.FetchedResidency.FetchedRelated {
  /// The live objects of `entity` in the container's store.
  static func resident(_ container: ModelContainer, _ entity: String) throws -> Int {
    try PostgreSQLStoreSuites.FetchedResidency().residentCount(container, entity)
  }

  /// 200 teams `t<i>`, each with one member `m<i>_0`, and two more (`m<i>_1`, `m<i>_2`)
  /// for every 25th.
  static func seedMany(_ url: URL) throws {
    let context = ModelContext(try TestServer.container(teamTypes, at: url))
    for index in 0..<200 {
      let team = Team(name: "t\(index)")
      context.insert(team)
      team.members = (0..<(index % 25 == 0 ? 3 : 1)).map { Member(name: "m\(index)_\($0)") }
    }
    try context.save()
  }

  @Test("with one unsaved change, such a fetch loads what can match, not the whole class")
  func loadsWhatCanMatch() throws {
    let url = try TestServer.freshURL()
    try Self.seedMany(url)
    let fetched = PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url)
    func changed() throws -> (ModelContainer, ModelContext) {
      let container = try TestServer.container(teamTypes, at: fetched)
      let context = ModelContext(container)
      try #require(
        try context.fetch(FetchDescriptor<Member>(predicate: #Predicate { $0.name == "m1_0" }))
          .first
      ).score = 5
      return (container, context)
    }
    let crowded = FetchDescriptor<Team>(
      predicate: #Predicate { $0.members.count > 2 }, sortBy: [SortDescriptor(\.name)])
    var (container, context) = try changed()
    #expect(try context.fetch(crowded).count == 8)
    let teams = try Self.resident(container, "Team")
    let members = try Self.resident(container, "Member")
    print("crowded teams with one change: \(teams) teams, \(members) members resident")
    // The 8 matches with their 24 members, and the changed member's team.
    #expect(teams == 9 && members == 25)
    (container, context) = try changed()
    #expect(try context.fetchCount(crowded) == 8)
    #expect(try Self.resident(container, "Team") == 1)
    (container, context) = try changed()
    let onTeam = FetchDescriptor<Member>(predicate: #Predicate { $0.team?.name == "t50" })
    #expect(try context.fetch(onTeam).map(\.name).sorted() == ["m50_0", "m50_1", "m50_2"])
    let onTeamTeams = try Self.resident(container, "Team")
    let onTeamMembers = try Self.resident(container, "Member")
    print("members of t50 with one change: \(onTeamTeams) teams, \(onTeamMembers) members")
    #expect(onTeamTeams == 2 && onTeamMembers == 4)
  }

  /// Teams `t00`…`t39`, team `i` with one member `s<i>` scored `i`.
  static func seedScored(_ url: URL) throws {
    let context = ModelContext(try TestServer.container(teamTypes, at: url))
    for index in 0..<40 {
      let team = Team(name: index < 10 ? "t0\(index)" : "t\(index)")
      context.insert(team)
      team.members = [Member(name: "s\(index)", score: index)]
    }
    try context.save()
  }

  /// Changes only to members: the teams at either end of the database's windows stop
  /// matching, though no team changed, and none starts.
  static func changeScores(_ context: ModelContext) throws {
    for (name, score) in [("s10", 0), ("s11", 1), ("s39", 0), ("s38", 1)] {
      try #require(
        try context.fetch(FetchDescriptor<Member>(predicate: #Predicate { $0.name == name }))
          .first
      ).score = score
    }
  }

  @Test("windows past teams whose members the context changed")
  func windowsPastRelatedChanges() throws {
    let url = try TestServer.freshURL()
    try Self.seedScored(url)
    var descriptors: [(String, FetchDescriptor<Team>)] = []
    for (offset, limit) in [(0, 2), (1, 3), (8, 3)] {
      for reverse in [false, true] {
        var window = FetchDescriptor<Team>(
          predicate: #Predicate { $0.members.contains { $0.score >= 10 } },
          sortBy: [SortDescriptor(\.name, order: reverse ? .reverse : .forward)])
        (window.fetchOffset, window.fetchLimit) = (offset, limit)
        descriptors.append(("high \(reverse) \(offset) \(limit)", window))
        var low = window
        low.predicate = #Predicate { $0.members.allSatisfy { $0.score > 1 } }
        descriptors.append(("all above 1 \(reverse) \(offset) \(limit)", low))
      }
    }
    let full = ModelContext(try TestServer.container(teamTypes, at: url))
    try Self.changeScores(full)
    let fetched = PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url)
    for (name, descriptor) in descriptors {
      let expected = try full.fetch(descriptor).map(\.name)
      let cold = ModelContext(try TestServer.container(teamTypes, at: fetched))
      try Self.changeScores(cold)
      #expect(try cold.fetch(descriptor).map(\.name) == expected, "\(name)")
      let counting = ModelContext(try TestServer.container(teamTypes, at: fetched))
      try Self.changeScores(counting)
      #expect(try counting.fetchCount(descriptor) == expected.count, "\(name)")
    }
  }
}
