import Foundation
import ModelGraphCore

/// Small valid snapshot files that start the fuzzer off with every kind of block and value.
enum SeedCorpus {
  /// The files, by name.
  static func files() throws -> [(String, [UInt8])] {
    [
      ("empty.mgs", SnapshotWriter.encode(try store(rows: 0).version)),
      ("small.mgs", SnapshotWriter.encode(try store(rows: 3).version)),
      ("small.mgs-journal", try journal()),
    ]
  }

  /// A journal of three saves onto an empty store, the first carrying the catalog: written by
  /// the engine into a temporary directory and read back.
  static func journal() throws -> [UInt8] {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("seed-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let files = StoreFiles(path: directory.appendingPathComponent("seed.mgs").path)
    let target = Store()
    let journal = try files.openJournal(
      for: target, after: try files.recover(), rewrite: true, durability: .none)
    target.attach(journal)
    let source = try store(rows: 3)
    try target.register(source.catalog.entities.map(\.description))
    let session = Session(store: target)
    for entity in source.version.tables.indices {
      let table = source.version.tables[entity]
      table.forEachLiveRow { row in
        let key = session.insert(entity: entity)
        let mine = session.table(entity)
        for (column, other) in zip(mine.attributeColumns, table.attributeColumns) {
          column.copyValue(from: other, fromRow: row, toRow: Int(key.row))
        }
      }
    }
    try session.save()
    journal.close()
    return try SystemFileIO().readFile(files.journalPath)
  }

  /// A store of `Item(every value type)`, `Special: Item (label)` and `Part(item)` with
  /// `Item.parts` as the inverse, holding `rows` items each with a part. The schema declares
  /// indexes (ordered, hash, unique) and default values of several types, so the seeds carry
  /// the schema fields of format version 3.
  static func store(rows: Int) throws -> Store {
    let store = Store()
    try store.register([
      EntityDescription(
        name: "Item",
        attributes: [
          AttributeDescription(name: "name", valueType: .string, isUnique: true),
          AttributeDescription(name: "count", valueType: .int, defaultValue: .int(7)),
          AttributeDescription(name: "size", valueType: .uint),
          AttributeDescription(name: "flag", valueType: .bool),
          AttributeDescription(
            name: "ratio", valueType: .double, isOptional: true, defaultValue: .null),
          AttributeDescription(name: "when", valueType: .date),
          AttributeDescription(name: "id", valueType: .uuid),
          AttributeDescription(name: "link", valueType: .url, isOptional: true),
          AttributeDescription(name: "blob", valueType: .data),
          AttributeDescription(name: "amount", valueType: .decimal),
          AttributeDescription(
            name: "tags", valueType: .array(.string), defaultValue: .array([.string("new")])),
        ],
        relationships: [
          RelationshipDescription(
            name: "parts", destination: "Part", isToMany: true, deleteRule: .cascade)
        ],
        indexes: [
          IndexDefinition(.ordered, on: "when"), IndexDefinition(.hash, on: "count"),
          IndexDefinition(.hash, on: "id", isUnique: true),
        ]),
      EntityDescription(
        name: "Special", parent: "Item",
        attributes: [
          AttributeDescription(name: "label", valueType: .string, defaultValue: .string("none"))
        ],
        indexes: [IndexDefinition(.ordered, on: "amount")]),
      EntityDescription(
        name: "Part", attributes: [AttributeDescription(name: "name", valueType: .string)],
        relationships: [
          RelationshipDescription(
            name: "item", destination: "Item", isToMany: false, inverse: "parts")
        ]),
    ])
    let session = Session(store: store)
    for index in 0..<rows {
      let entity = index == 2 ? 1 : 0
      let key = session.insert(entity: entity)
      let table = session.table(entity)
      let row = Int(key.row)
      table.column(0, as: String.self)[row] = "item \(index)"
      table.column(1, as: Int64.self)[row] = Int64(index) - 1
      table.column(2, as: UInt64.self)[row] = UInt64(index)
      table.column(3, as: Bool.self)[row] = index == 1
      table.column(4, as: Double?.self)[row] = index == 0 ? nil : 0.5
      table.column(5, as: Date.self)[row] = Date(
        timeIntervalSinceReferenceDate: index == 1 ? 2.5 : 1)
      table.column(6, as: UUID.self)[row] = UUID(
        uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))
      table.column(7, as: URL?.self)[row] = URL(string: "https://example.com/")
      table.column(8, as: Data.self)[row] = Data([1, 2, 3])
      table.column(9, as: Decimal.self)[row] = Decimal(index) / 8
      table.column(10, as: [String].self)[row] = ["a", "b"]
      if entity == 1 { table.column(11, as: String.self)[row] = "special" }
      let part = session.insert(entity: 2)
      session.table(2).column(0, as: String.self)[Int(part.row)] = "part \(index)"
      session.table(2).setRelatedKeys([key], row: Int(part.row), slot: 0)
      table.setRelatedKeys([part], row: row, slot: 0)
    }
    try session.save()
    return store
  }
}
