import Testing

@testable import ModelGraphCore

@Suite("Migration: schema differences")
struct SchemaDifferenceTests {
  @Test("renames, additions, removals, type, option, parent and relationship changes are named")
  func differences() throws {
    let old = try MigrationFixture.catalog(
      Fixture.descriptions + [MigrationFixture.accommodationDescription])
    var descriptions = Fixture.descriptions
    descriptions[0].attributes = [
      AttributeDescription(name: "title", valueType: .string, isUnique: true, originalName: "name"),
      AttributeDescription(name: "days", valueType: .double),
      AttributeDescription(name: "rating", valueType: .int, isOptional: true),
    ]
    descriptions[1].parent = nil
    descriptions.remove(at: 2)
    var accommodation = MigrationFixture.accommodationDescription
    accommodation.relationships[0].deleteRule = .cascade
    let new = try MigrationFixture.catalog(
      descriptions + [accommodation, EntityDescription(name: "Cruise", parent: "Trip")])
    let differences = old.differences(to: new)
    let expected: [SchemaDifference] = [
      SchemaDifference(entity: "PersonalTrip", change: .entityRemoved),
      SchemaDifference(entity: "Trip", property: "note", change: .attributeRemoved),
      SchemaDifference(entity: "Trip", property: "title", change: .attributeRenamed(from: "name")),
      SchemaDifference(
        entity: "Trip", property: "title", change: .attributeOptionChanged("unique added")),
      SchemaDifference(
        entity: "Trip", property: "days", change: .attributeTypeChanged(from: "Int", to: "Double")),
      SchemaDifference(entity: "Trip", property: "rating", change: .attributeAdded),
      SchemaDifference(entity: "BusinessTrip", change: .parentChanged(from: "Trip", to: nil)),
      SchemaDifference(
        entity: "Accommodation", property: "trip",
        change: .relationshipChanged("delete rule nullify became cascade")),
      SchemaDifference(entity: "Cruise", change: .entityAdded),
    ]
    #expect(differences == expected)
    #expect(differences[2].description == "Trip.title: attribute renamed from name")
  }

  @Test("declaration order and originalName alone are no differences")
  func layoutOnly() throws {
    var descriptions = Fixture.descriptions
    descriptions[0].attributes.reverse()
    descriptions[0].attributes[0].originalName = "comment"
    let old = try MigrationFixture.catalog(Fixture.descriptions)
    #expect(old.differences(to: try MigrationFixture.catalog(descriptions)).isEmpty)
  }
}
