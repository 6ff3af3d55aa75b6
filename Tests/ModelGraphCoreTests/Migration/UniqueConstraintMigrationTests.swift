import Testing

@testable import ModelGraphCore

@Suite("Migration: compound unique constraints")
struct UniqueConstraintMigrationTests {
  private static func descriptions(constraint: [String]?) -> [EntityDescription] {
    var descriptions = Fixture.descriptions + [MigrationFixture.accommodationDescription]
    descriptions[0].uniqueConstraints = constraint.map { [$0] } ?? []
    return descriptions
  }

  @Test("an added constraint is a named difference, and stored data that satisfies it migrates")
  func addedConstraintMigrates() throws {
    let fixture = try MigrationFixture()
    let target = try MigrationFixture.catalog(Self.descriptions(constraint: ["name", "days"]))
    let differences = fixture.version.catalog.differences(to: target)
    #expect(
      differences == [
        SchemaDifference(
          entity: "Trip", change: .uniqueConstraintsChanged(from: [], to: [["name", "days"]]))
      ])
    #expect(differences[0].description.contains("(name, days)"))
    let version = try fixture.version.migrated(to: target, mode: .lightweight).version
    #expect(version.catalog.entities[0].uniqueConstraints.map(\.slots) == [[0, 1]])
    #expect(version.value("name", of: fixture.rome) == .string("Rome"))
  }

  @Test("an added constraint that stored objects break refuses the migration, naming the values")
  func addedConstraintWithDuplicatesFails() throws {
    let fixture = try MigrationFixture()
    let store = Store(loading: fixture.version)
    let session = Session(store: store)
    _ = session.insert(entity: Fixture.business, name: "Paris", days: 3)
    _ = try session.save()
    let target = try MigrationFixture.catalog(Self.descriptions(constraint: ["name", "days"]))
    let error = try #require(throws: MigrationError.self) {
      try store.version.migrated(to: target, mode: .lightweight)
    }
    #expect(error.code == .invalidData)
    #expect(error.message.contains("Paris"))
    #expect(error.differences.map(\.entity) == ["Trip"])
  }
}
