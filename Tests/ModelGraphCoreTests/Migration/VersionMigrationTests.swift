import Testing

@testable import ModelGraphCore

@Suite("Migration: lightweight transformation of stored tables")
struct VersionMigrationTests {
  /// The fixture's schema with Trip's attributes replaced.
  static func tripSchema(
    _ attributes: [AttributeDescription], accommodation: EntityDescription? = nil
  ) throws -> SchemaCatalog {
    var descriptions = Fixture.descriptions
    descriptions[0].attributes = attributes
    return try MigrationFixture.catalog(
      descriptions + [accommodation ?? MigrationFixture.accommodationDescription])
  }

  @Test("attributes are added with a default or nil, removed, and renamed; rows keep their keys")
  func attributes() throws {
    let fixture = try MigrationFixture()
    let target = try Self.tripSchema([
      AttributeDescription(name: "title", valueType: .string, originalName: "name"),
      AttributeDescription(name: "days", valueType: .int),
      AttributeDescription(name: "rating", valueType: .int),
      AttributeDescription(name: "budget", valueType: .double, isOptional: true),
    ])
    let migrated = try fixture.version.migrated(
      to: target,
      defaults: [
        "Trip": ["rating": .int(5)], "BusinessTrip": ["rating": .int(6)],
        "PersonalTrip": ["rating": .int(5)],
      ],
      mode: .lightweight)
    let version = migrated.version
    #expect(migrated.unsetAttributes.isEmpty)
    #expect(fixture.paris.generation == 1)
    for key in [fixture.paris, fixture.rome, fixture.summit, fixture.beach] {
      #expect(version.contains(key))
    }
    #expect(version.value("title", of: fixture.rome) == .string("Rome"))
    #expect(version.value("days", of: fixture.beach) == .int(7))
    #expect(version.value("rating", of: fixture.paris) == .int(5))
    #expect(version.value("rating", of: fixture.summit) == .int(6))
    #expect(version.value("budget", of: fixture.summit) == .null)
    #expect(version.value("company", of: fixture.summit) == .string("Acme"))
    #expect(version.tables[Fixture.trip].entity.attributeSlot(named: "note") == nil)
    #expect(version.count(of: Fixture.trip, deep: true) == 4)
    #expect(version.related("trip", of: fixture.hut) == [fixture.summit])
  }

  @Test(
    "a required attribute without a default is refused by a lightweight stage, owed by a custom one"
  )
  func requiredWithoutDefault() throws {
    let fixture = try MigrationFixture()
    let target = try Self.tripSchema(
      Fixture.descriptions[0].attributes + [AttributeDescription(name: "rating", valueType: .int)])
    let error = try #require(throws: MigrationError.self) {
      try fixture.version.migrated(to: target, mode: .lightweight)
    }
    #expect(error.code == .notLightweight)
    #expect(
      error.differences == [
        SchemaDifference(entity: "Trip", property: "rating", change: .attributeAdded)
      ])
    let custom = try fixture.version.migrated(to: target, mode: .custom)
    let rating = 3
    #expect(
      Set(custom.unsetAttributes)
        == Set((0..<3).map { MigrationSlot(entity: $0, slot: rating) }))
  }

  @Test("T becomes T? as it is; T? becomes T only when no value is nil or a default fills it")
  func optionality() throws {
    let fixture = try MigrationFixture()
    var attributes = Fixture.descriptions[0].attributes
    attributes[Fixture.days].isOptional = true
    let widened = try fixture.version.migrated(
      to: try Self.tripSchema(attributes), mode: .lightweight
    ).version
    #expect(widened.value("days", of: fixture.rome) == .int(4))

    attributes = Fixture.descriptions[0].attributes
    attributes[Fixture.note].isOptional = false
    let narrowed = try Self.tripSchema(attributes)
    let error = try #require(throws: MigrationError.self) {
      try fixture.version.migrated(to: narrowed, mode: .lightweight)
    }
    #expect(error.code == .notLightweight)
    #expect(error.differences.first?.change == .attributeTypeChanged(from: "String?", to: "String"))
    #expect(error.message.contains("2 stored objects have no value"))
    let filled = try fixture.version.migrated(
      to: narrowed,
      defaults: [
        "Trip": ["note": .string("-")], "PersonalTrip": ["note": .string("-")],
        "BusinessTrip": ["note": .string("-")],
      ],
      mode: .lightweight
    ).version
    #expect(filled.value("note", of: fixture.paris) == .string("-"))
    #expect(filled.value("note", of: fixture.beach) == .string("sunny"))
  }

  @Test("a changed attribute type is refused by a lightweight stage")
  func typeChange() throws {
    let fixture = try MigrationFixture()
    var attributes = Fixture.descriptions[0].attributes
    attributes[Fixture.days].valueType = .string
    let error = try #require(throws: MigrationError.self) {
      try fixture.version.migrated(to: try Self.tripSchema(attributes), mode: .lightweight)
    }
    #expect(error.code == .notLightweight)
    #expect(
      error.differences == [
        SchemaDifference(
          entity: "Trip", property: "days", change: .attributeTypeChanged(from: "Int", to: "String")
        )
      ])
  }

  @Test("a removed subclass takes its objects and the references to them; keys are remapped")
  func entities() throws {
    let fixture = try MigrationFixture()
    let cruise = EntityDescription(
      name: "Cruise", parent: "Trip",
      attributes: [AttributeDescription(name: "ship", valueType: .string)])
    let target = try MigrationFixture.catalog([
      MigrationFixture.accommodationDescription, Fixture.descriptions[0], cruise,
      Fixture.descriptions[1],
    ])
    let version = try fixture.version.migrated(to: target, mode: .lightweight).version
    #expect(version.catalog.entity(named: "PersonalTrip") == nil)
    let hut = version.key(for: fixture.hut, from: fixture.version)
    let summit = version.key(for: fixture.summit, from: fixture.version)
    #expect(hut.entity == 0 && summit.entity == 3)
    #expect(version.related("trip", of: hut) == [summit])
    #expect(version.value("company", of: summit) == .string("Acme"))
    #expect(
      version.related("trip", of: version.key(for: fixture.tent, from: fixture.version)) == [])
    #expect(version.count(of: 1, deep: true) == 3)
    #expect(version.tables[2].liveCount == 0)
  }

  @Test("an added relationship is filled from its stored inverse")
  func derivedInverse() throws {
    let fixture = try MigrationFixture()
    var descriptions = Fixture.descriptions + [MigrationFixture.accommodationDescription]
    descriptions[0].relationships = [
      RelationshipDescription(
        name: "stays", destination: "Accommodation", isToMany: true, inverse: "trip",
        deleteRule: .cascade)
    ]
    let version = try fixture.version.migrated(
      to: try MigrationFixture.catalog(descriptions), mode: .lightweight
    ).version
    #expect(version.related("stays", of: fixture.paris) == [fixture.hotel])
    #expect(version.related("stays", of: fixture.summit) == [fixture.hut])
    #expect(version.related("stays", of: fixture.rome) == [])
    #expect(version.related("trip", of: fixture.tent) == [fixture.beach])
  }

  @Test(
    "a to-one relationship becomes to-many; a delete rule changes; to-many to to-one is refused")
  func relationshipChanges() throws {
    let fixture = try MigrationFixture()
    var accommodation = MigrationFixture.accommodationDescription
    accommodation.relationships[0].isToMany = true
    accommodation.relationships[0].deleteRule = .deny
    let many = try fixture.version.migrated(
      to: try MigrationFixture.catalog(Fixture.descriptions + [accommodation]),
      mode: .lightweight
    ).version
    #expect(many.related("trip", of: fixture.hotel) == [fixture.paris])
    #expect(many.catalog.entities[3].relationships[0].deleteRule == .deny)

    var back = accommodation
    back.relationships[0].isToMany = false
    let error = try #require(throws: MigrationError.self) {
      try many.migrated(
        to: try MigrationFixture.catalog(Fixture.descriptions + [back]), mode: .lightweight)
    }
    #expect(error.code == .notLightweight)
    #expect(
      error.differences == [
        SchemaDifference(
          entity: "Accommodation", property: "trip",
          change: .relationshipChanged("to-many became to-one"))
      ])
  }

  @Test("an attribute made unique is checked for stored duplicates")
  func uniqueness() throws {
    let fixture = try MigrationFixture()
    var attributes = Fixture.descriptions[0].attributes
    attributes[Fixture.name].isUnique = true
    let unique = try fixture.version.migrated(
      to: try Self.tripSchema(attributes), mode: .lightweight)
    #expect(unique.version.catalog.entities[0].attributes[0].isUnique)

    attributes = Fixture.descriptions[0].attributes
    attributes.append(AttributeDescription(name: "code", valueType: .string, isUnique: true))
    let error = try #require(throws: MigrationError.self) {
      try fixture.version.migrated(
        to: try Self.tripSchema(attributes),
        defaults: [
          "Trip": ["code": .string("X")], "BusinessTrip": ["code": .string("X")],
          "PersonalTrip": ["code": .string("X")],
        ],
        mode: .lightweight)
    }
    #expect(error.code == .invalidData)
    #expect(error.message.contains("Trip.code"))
  }
}
