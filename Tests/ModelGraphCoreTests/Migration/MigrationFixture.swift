@testable import ModelGraphCore

/// A stored trip hierarchy with accommodations, in the shape of ``Fixture`` plus
/// `Accommodation(name, trip: Trip?)` (index 3, no inverse declared).
struct MigrationFixture {
  static let accommodation = 3

  static let accommodationDescription = EntityDescription(
    name: "Accommodation",
    attributes: [AttributeDescription(name: "name", valueType: .string)],
    relationships: [RelationshipDescription(name: "trip", destination: "Trip", isToMany: false)])

  let version: StoreVersion
  let paris: ObjectKey
  let rome: ObjectKey
  let summit: ObjectKey
  let beach: ObjectKey
  let hotel: ObjectKey
  let hut: ObjectKey
  let tent: ObjectKey

  /// Paris and Rome (Trip; Paris reuses the row of a deleted trip, with generation 1), Summit
  /// (BusinessTrip), Beach (PersonalTrip); Hotel points at Paris, Hut at Summit, Tent at Beach.
  init() throws {
    let store = Store()
    try store.register(Fixture.descriptions + [Self.accommodationDescription])
    let session = Session(store: store)
    let gone = session.insert(entity: Fixture.trip, name: "Gone")
    try session.save()
    session.delete(gone)
    try session.save()
    paris = session.insert(entity: Fixture.trip, name: "Paris", days: 3)
    rome = session.insert(entity: Fixture.trip, name: "Rome", days: 4)
    summit = session.insert(entity: Fixture.business, name: "Summit", days: 2)
    session.set("Acme", slot: Fixture.company, of: summit)
    beach = session.insert(entity: Fixture.personal, name: "Beach", days: 7)
    session.set("sunny" as String?, slot: Fixture.note, of: beach)
    var made: [ObjectKey] = []
    for (name, trip) in [("Hotel", paris), ("Hut", summit), ("Tent", beach)] {
      let key = session.insert(entity: Self.accommodation)
      session.set(name, slot: 0, of: key)
      session.table(Self.accommodation).setRelatedKeys([trip], row: Int(key.row), slot: 0)
      made.append(key)
    }
    (hotel, hut, tent) = (made[0], made[1], made[2])
    try session.save()
    version = store.version
  }

  /// A catalog of `descriptions`.
  static func catalog(_ descriptions: [EntityDescription]) throws -> SchemaCatalog {
    try SchemaCatalog().adding(descriptions)
  }
}

extension StoreVersion {
  /// The key `key` of the source version has in this version, found by entity name.
  func key(for key: ObjectKey, from source: StoreVersion) -> ObjectKey {
    let name = source.catalog.entities[Int(key.entity)].name
    let entity = catalog.entity(named: name)!.index
    return ObjectKey(entity: entity, row: Int(key.row), generation: key.generation)
  }

  /// The value of attribute `name` of the object `key` names, boxed.
  func value(_ name: String, of key: ObjectKey) -> ModelValue {
    let table = tables[Int(key.entity)]
    return table.attributeColumns[table.entity.attributeSlot(named: name)!].value(
      at: Int(key.row))
  }

  /// The keys relationship `name` of the object `key` names holds.
  func related(_ name: String, of key: ObjectKey) -> [ObjectKey] {
    let table = tables[Int(key.entity)]
    return table.relatedKeys(row: Int(key.row), slot: table.entity.relationshipSlot(named: name)!)
  }
}
