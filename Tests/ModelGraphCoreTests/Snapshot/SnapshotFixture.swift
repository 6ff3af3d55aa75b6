import Foundation

@testable import ModelGraphCore

/// Small stores for snapshot tests: every attribute type, inheritance and a relationship pair.
///
/// `Trip(name, days, note?, tags, flag, price, start, id, link?, blob, amount, count)` with a
/// to-many `stays`, `BusinessTrip: Trip (company)`, and `Stay(name)` with a to-one `trip`, the
/// inverse of `stays`.
enum SnapshotFixture {
  static let trip = 0
  static let business = 1
  static let stay = 2

  static let descriptions = [
    EntityDescription(
      name: "Trip",
      attributes: [
        AttributeDescription(name: "name", valueType: .string),
        AttributeDescription(name: "days", valueType: .int),
        AttributeDescription(name: "note", valueType: .string, isOptional: true),
        AttributeDescription(name: "tags", valueType: .array(.string)),
        AttributeDescription(name: "flag", valueType: .bool),
        AttributeDescription(name: "price", valueType: .double),
        AttributeDescription(name: "start", valueType: .date),
        AttributeDescription(name: "id", valueType: .uuid, isUnique: true),
        AttributeDescription(name: "link", valueType: .url, isOptional: true),
        AttributeDescription(name: "blob", valueType: .data),
        AttributeDescription(name: "amount", valueType: .decimal),
        AttributeDescription(name: "count", valueType: .uint),
      ],
      relationships: [
        RelationshipDescription(
          name: "stays", destination: "Stay", isToMany: true, deleteRule: .cascade)
      ]),
    EntityDescription(
      name: "BusinessTrip", parent: "Trip",
      attributes: [AttributeDescription(name: "company", valueType: .string)]),
    EntityDescription(
      name: "Stay", attributes: [AttributeDescription(name: "name", valueType: .string)],
      relationships: [
        RelationshipDescription(
          name: "trip", destination: "Trip", isToMany: false, inverse: "stays")
      ]),
  ]

  /// A store holding `trips` trips (every third a business trip), each with one stay, then
  /// `deletions` of them deleted again (so rows are reused with new generations); the version
  /// number grows with every call's saves.
  static func makeStore(trips: Int = 3, deletions: Int = 1, seed: Int64 = 0) throws -> Store {
    let store = Store()
    try store.register(descriptions)
    let session = Session(store: store)
    var keys: [ObjectKey] = []
    for index in 0..<trips {
      let entity = index % 3 == 2 ? business : trip
      let key = session.insert(entity: entity)
      let table = session.table(entity)
      let row = Int(key.row)
      table.column(0, as: String.self)[row] = "trip \(index)"
      table.column(1, as: Int64.self)[row] = seed + Int64(index)
      table.column(2, as: String?.self)[row] = index.isMultiple(of: 2) ? "note \(index)" : nil
      table.column(3, as: [String].self)[row] = Array(repeating: "t", count: index % 4)
      table.column(4, as: Bool.self)[row] = index % 2 == 1
      table.column(5, as: Double.self)[row] = Double(index) * 1.5
      table.column(6, as: Date.self)[row] = Date(timeIntervalSinceReferenceDate: Double(index))
      table.column(7, as: UUID.self)[row] = UUID()
      table.column(8, as: URL?.self)[row] = URL(string: "https://example.com/\(index)")
      table.column(9, as: Data.self)[row] = Data([UInt8(index & 0xFF), 1, 2])
      table.column(10, as: Decimal.self)[row] = Decimal(index) / 4
      table.column(11, as: UInt64.self)[row] = UInt64(index)
      if entity == business { table.column(12, as: String.self)[row] = "Acme \(index)" }
      for slot in 0..<13 { session.noteAttributeWrite(entity: entity, row: row, slot: slot) }
      let stay = session.insert(entity: self.stay)
      session.table(self.stay).column(0, as: String.self)[Int(stay.row)] = "stay \(index)"
      session.noteAttributeWrite(entity: self.stay, row: Int(stay.row), slot: 0)
      session.table(self.stay).setRelatedKeys([key], row: Int(stay.row), slot: 0)
      table.setRelatedKeys([stay], row: row, slot: 0)
      session.noteRelationshipWrite(entity: self.stay, row: Int(stay.row))
      session.noteRelationshipWrite(entity: entity, row: row)
      keys.append(key)
    }
    try session.save()
    for key in keys.prefix(deletions) {
      let stays = session.table(Int(key.entity)).relatedKeys(row: Int(key.row), slot: 0)
      for stay in stays { session.delete(stay) }
      session.delete(key)
    }
    try session.save()
    return store
  }

  /// The snapshot bytes of a small store.
  static func bytes(trips: Int = 3) throws -> [UInt8] {
    SnapshotWriter.encode(try makeStore(trips: trips).version)
  }
}
