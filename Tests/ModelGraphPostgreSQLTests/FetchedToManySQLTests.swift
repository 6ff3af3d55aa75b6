import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

extension PostgreSQLStoreSuites.FetchedResidency {
  /// Predicates that read to-many relationships run in PostgreSQL whole, as the engine reads
  /// them: only objects that still exist count.
  @Suite("To-many relationships in SQL") struct FetchedToManySQL {
    /// Teams t0…t9, team `i` with `i % 4` members scored `10 * i + j` and `i % 3` tags
    /// (which do not know their teams); one tag of t5 deleted after the save, so that its
    /// join row is left behind.
    static func seed(_ url: URL) throws {
      let context = ModelContext(try TestServer.container(teamTypes, at: url))
      for index in 0..<10 {
        let team = Team(name: "t\(index)")
        context.insert(team)
        team.members = (0..<index % 4).map {
          $0 == 1
            ? Captain(name: "c\(index)_\($0)", since: 10 * index + $0)
            : Member(name: "m\(index)_\($0)", score: 10 * index + $0)
        }
        team.tags = (0..<index % 3).map { Tag(label: "l\(index)_\($0)") }
      }
      try context.save()
      try context.fetch(FetchDescriptor<Tag>(predicate: #Predicate { $0.label == "l5_1" }))
        .forEach(context.delete)
      try context.save()
    }

    /// The team fetches compared.
    static func teamDescriptors() -> [(String, FetchDescriptor<Team>)] {
      let byName = [SortDescriptor(\Team.name)]
      var crowded = FetchDescriptor<Team>(
        predicate: #Predicate { $0.members.count > 1 }, sortBy: byName)
      crowded.fetchLimit = 3
      return [
        ("more than one member, first 3", crowded),
        (
          "no member",
          FetchDescriptor(predicate: #Predicate { $0.members.count == 0 }, sortBy: byName)
        ),
        (
          "a member above 50",
          FetchDescriptor(
            predicate: #Predicate { $0.members.contains { $0.score > 50 } }, sortBy: byName)
        ),
        (
          "every member below 50",
          FetchDescriptor(
            predicate: #Predicate { $0.members.allSatisfy { $0.score < 50 } }, sortBy: byName)
        ),
        (
          "a captain",
          FetchDescriptor(
            predicate: #Predicate { $0.members.contains { $0 is Captain } }, sortBy: byName)
        ),
        (
          "one tag (a deleted one left in t5's list)",
          FetchDescriptor(predicate: #Predicate { $0.tags.count == 1 }, sortBy: byName)
        ),
        (
          "tag l5_1 (deleted)",
          FetchDescriptor(
            predicate: #Predicate { $0.tags.contains { $0.label == "l5_1" } }, sortBy: byName)
        ),
      ]
    }

    /// The member fetches compared: to-many relationships of a related object.
    static func memberDescriptors() -> [(String, FetchDescriptor<Member>)] {
      let byName = [SortDescriptor(\Member.name)]
      return [
        (
          "on a team of three",
          FetchDescriptor(
            predicate: #Predicate { ($0.team?.members.count ?? 0) == 3 }, sortBy: byName)
        ),
        (
          "on a tagged team",
          FetchDescriptor(predicate: #Predicate { ($0.team?.tags.count ?? 0) > 0 }, sortBy: byName)
        ),
      ]
    }

    /// Compares each fetch and count, from a cold container, with full mode's, and checks that
    /// the SQL tests the whole predicate.
    func compare<T: PersistentModel>(
      _ descriptors: [(String, FetchDescriptor<T>)], url: URL
    ) throws {
      let full = ModelContext(try TestServer.container(teamTypes, at: url))
      let fetched = PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url)
      for (name, descriptor) in descriptors {
        let expected = try full.fetch(descriptor).map(\.persistentModelID)
        let context = ModelContext(try TestServer.container(teamTypes, at: fetched))
        #expect(!(try context.explain(descriptor)).contains("not in SQL"), "\(name)")
        #expect(try context.fetchCount(descriptor) == expected.count, "\(name)")
        #expect(try context.fetch(descriptor).map(\.persistentModelID) == expected, "\(name)")
      }
    }

    @Test("counts, quantifiers and to-many relationships of related objects, as in full mode")
    func differential() throws {
      let url = try TestServer.freshURL()
      try Self.seed(url)
      // The deleted tag's join row is still there.
      let dangling = try TestServer.query(
        "SELECT count(*) FROM \"Team.tags\" j WHERE NOT EXISTS "
          + "(SELECT 1 FROM \"Tag\" g WHERE g.id = j.target)", at: url)
      #expect(dangling == ["1"])
      try compare(Self.teamDescriptors(), url: url)
      try compare(Self.memberDescriptors(), url: url)
    }
  }
}
