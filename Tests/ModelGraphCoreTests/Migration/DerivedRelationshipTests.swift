import Testing

@testable import ModelGraphCore

@Suite("Migration: relationships derived from a stored inverse")
struct DerivedRelationshipTests {
  /// The fixture with `Trip.stays` (to-many, no inverse) holding `stays` per trip.
  private static func storeWithStays(
    _ fixture: MigrationFixture, _ stays: [(ObjectKey, [ObjectKey])]
  ) throws -> (Store, [EntityDescription]) {
    var descriptions = Fixture.descriptions + [MigrationFixture.accommodationDescription]
    descriptions[0].relationships = [
      RelationshipDescription(name: "stays", destination: "Accommodation", isToMany: true)
    ]
    let version = try fixture.version.migrated(
      to: try MigrationFixture.catalog(descriptions), mode: .lightweight
    ).version
    let store = Store(loading: version)
    let session = Session(store: store)
    for (trip, keys) in stays {
      session.table(Int(trip.entity)).setRelatedKeys(keys, row: Int(trip.row), slot: 0)
      session.noteRelationshipWrite(entity: Int(trip.entity), row: Int(trip.row))
    }
    _ = try session.save()
    return (store, descriptions)
  }

  /// `descriptions` with `Accommodation.owner`, to-one, the inverse of `Trip.stays`.
  private static func withOwner(_ descriptions: [EntityDescription]) throws -> SchemaCatalog {
    var descriptions = descriptions
    descriptions[3].relationships.append(
      RelationshipDescription(name: "owner", destination: "Trip", isToMany: false, inverse: "stays")
    )
    return try MigrationFixture.catalog(descriptions)
  }

  @Test("a to-one relationship is derived from a to-many one that gains it as its inverse")
  func derived() throws {
    let fixture = try MigrationFixture()
    let (store, descriptions) = try Self.storeWithStays(
      fixture, [(fixture.rome, [fixture.hotel, fixture.tent]), (fixture.summit, [fixture.hut])])
    let version = try store.version.migrated(
      to: try Self.withOwner(descriptions), mode: .lightweight
    ).version
    #expect(version.related("owner", of: fixture.hotel) == [fixture.rome])
    #expect(version.related("owner", of: fixture.tent) == [fixture.rome])
    #expect(version.related("owner", of: fixture.hut) == [fixture.summit])
    #expect(version.related("stays", of: fixture.rome) == [fixture.hotel, fixture.tent])
    #expect(version.related("trip", of: fixture.hotel) == [fixture.paris])
  }

  @Test("an object held by two owners cannot get a derived to-one relationship")
  func conflict() throws {
    let fixture = try MigrationFixture()
    let (store, descriptions) = try Self.storeWithStays(
      fixture, [(fixture.paris, [fixture.hotel]), (fixture.rome, [fixture.hotel])])
    let error = try #require(throws: MigrationError.self) {
      try store.version.migrated(to: try Self.withOwner(descriptions), mode: .lightweight)
    }
    #expect(error.code == .invalidData)
    #expect(error.message.contains("Accommodation.owner is to-one"))
    #expect(
      error.differences == [
        SchemaDifference(entity: "Accommodation", property: "owner", change: .relationshipAdded)
      ])
  }
}
