import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

extension PostgreSQLStoreSuites.FetchedResidency {
  @Test("a unique value held by an object not in memory fails the save as in memory")
  func uniqueAgainstUnloaded() throws {
    let url = try TestServer.freshURL()
    try Self.seed(url, members: 3)
    let container = try TestServer.container(teamTypes, at: Self.fetchedOnly(url))
    let context = ModelContext(container)
    let duplicate = Team(name: "Red")
    context.insert(duplicate)
    context.insert(Team(name: "Green"))
    // "Red" is not in memory: only PostgreSQL can tell, at the commit.
    #expect(try residentCount(container, "Team") == 0)
    let error = try #require(throws: ModelError.self) { try context.save() }
    #expect(error.code == .validationFailed)
    #expect(error.violations.count == 1)
    let violation = try #require(error.violations.first)
    #expect(violation.entity == "Team")
    #expect(violation.property == "name")
    #expect(violation.identifier == duplicate.persistentModelID)
    #expect(violation.rule == "value \"Red\" is not unique")
    // Nothing was saved, and the context keeps its changes.
    #expect(
      try TestServer.query("SELECT name FROM \"Team\" ORDER BY name", at: url) == ["Blue", "Red"])
    #expect(context.hasChanges)
    // The container stays usable: fixed, the save goes through.
    duplicate.name = "Amber"
    try context.save()
    #expect(
      try TestServer.query("SELECT name FROM \"Team\" ORDER BY name", at: url)
        == ["Amber", "Blue", "Green", "Red"])
    let fresh = ModelContext(try TestServer.container(teamTypes, at: url))
    #expect(try fresh.fetchCount(FetchDescriptor<Team>()) == 4)
  }
}
