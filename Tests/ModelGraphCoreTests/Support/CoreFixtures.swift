import Foundation

@testable import ModelGraphCore

/// Entity indices and attribute slots of the core test hierarchy:
/// `Trip(name, days, note?)`, `BusinessTrip: Trip (company)`, `PersonalTrip: Trip (reason)`.
enum Fixture {
  static let trip = 0
  static let business = 1
  static let personal = 2

  static let name = 0
  static let days = 1
  static let note = 2
  static let company = 3
  static let reason = 3

  static let descriptions = [
    EntityDescription(
      name: "Trip",
      attributes: [
        AttributeDescription(name: "name", valueType: .string),
        AttributeDescription(name: "days", valueType: .int),
        AttributeDescription(name: "note", valueType: .string, isOptional: true),
      ]),
    EntityDescription(
      name: "BusinessTrip", parent: "Trip",
      attributes: [AttributeDescription(name: "company", valueType: .string)]),
    EntityDescription(
      name: "PersonalTrip", parent: "Trip",
      attributes: [AttributeDescription(name: "reason", valueType: .uint)]),
  ]

  /// A store with the trip hierarchy registered.
  static func makeStore() throws -> Store {
    let store = Store()
    try store.register(descriptions)
    return store
  }

  /// A session on a new store holding 60 saved trips, `t0`…`t59`, with `days` = index % 20.
  static func sessionWithSavedTrips() throws -> Session {
    let session = Session(store: try makeStore())
    for index in 0..<60 {
      _ = session.insert(entity: trip, name: "t\(index)", days: Int64(index % 20))
    }
    try session.save()
    return session
  }
}

extension Session {
  /// Inserts an object of `entity` with a name and a number of days.
  func insert(entity: Int, name: String, days: Int64 = 0) -> ObjectKey {
    let key = insert(entity: entity)
    set(name, slot: Fixture.name, of: key)
    set(days, slot: Fixture.days, of: key)
    return key
  }

  /// Writes attribute `slot` of the object `key` names, and records the write.
  func set<Value: ColumnValue>(_ value: Value, slot: Int, of key: ObjectKey) {
    table(Int(key.entity)).column(slot, as: Value.self)[Int(key.row)] = value
    noteAttributeWrite(entity: Int(key.entity), row: Int(key.row), slot: slot)
  }

  /// Reads attribute `slot` of the object `key` names, with the session's changes.
  func get<Value: ColumnValue>(_: Value.Type, slot: Int, of key: ObjectKey) -> Value {
    table(Int(key.entity)).column(slot, as: Value.self)[Int(key.row)]
  }
}

extension StoreVersion {
  /// Reads attribute `slot` of the object `key` names in this version.
  func get<Value: ColumnValue>(_: Value.Type, slot: Int, of key: ObjectKey) -> Value {
    tables[Int(key.entity)].column(slot, as: Value.self)[Int(key.row)]
  }

  /// Whether the object `key` names lives in this version.
  func contains(_ key: ObjectKey) -> Bool {
    Int(key.entity) < tables.count && tables[Int(key.entity)].contains(key)
  }

  /// The names of the live objects of `entity`, sorted.
  func names(of entity: Int) -> [String] {
    let table = tables[entity]
    var names: [String] = []
    table.forEachLiveRow { names.append(table.column(Fixture.name, as: String.self)[$0]) }
    return names.sorted()
  }
}
