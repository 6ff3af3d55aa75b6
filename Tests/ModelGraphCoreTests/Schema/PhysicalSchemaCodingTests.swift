import Foundation
import Testing

@testable import ModelGraphCore

/// A schema that declares indexes of every kind and default values of several types.
private enum Declared {
  static let descriptions = [
    EntityDescription(
      name: "Trip",
      attributes: [
        AttributeDescription(name: "name", valueType: .string, defaultValue: .string("untitled")),
        AttributeDescription(name: "days", valueType: .int, defaultValue: .int(7)),
        AttributeDescription(
          name: "note", valueType: .string, isOptional: true, defaultValue: .null),
        AttributeDescription(
          name: "tags", valueType: .array(.string), defaultValue: .array([.string("new")])),
        AttributeDescription(name: "code", valueType: .string, isUnique: true),
        AttributeDescription(
          name: "start", valueType: .date,
          defaultValue: .date(Date(timeIntervalSince1970: 1_777_000_000))),
      ],
      uniqueConstraints: [["name", "days"]],
      indexes: [
        IndexDefinition(.ordered, on: "name"), IndexDefinition(.hash, on: "days"),
        IndexDefinition(.hash, on: "start", isUnique: true),
      ]),
    EntityDescription(
      name: "BusinessTrip", parent: "Trip",
      attributes: [
        AttributeDescription(name: "company", valueType: .string, defaultValue: .string("Acme"))
      ],
      indexes: [IndexDefinition(.ordered, on: "company"), IndexDefinition(.ordered, on: "days")]),
  ]

  static func catalog() throws -> SchemaCatalog { try SchemaCatalog().adding(descriptions) }

  /// The schema payload of `catalog` as format `version` lays it out.
  static func payload(_ catalog: SchemaCatalog, version: UInt32 = SnapshotFormat.version)
    -> [UInt8]
  {
    var writer = ByteWriter()
    catalog.encode(into: &writer, version: version)
    return writer.bytes
  }

  /// Decodes a schema payload as format `version`.
  static func decode(_ bytes: [UInt8], version: UInt32 = SnapshotFormat.version) throws
    -> SchemaCatalog
  {
    try bytes.withUnsafeBytes { raw in
      var reader = ByteReader(raw, fileOffset: 0, path: "test", section: "schema")
      let catalog = try SchemaCatalog.decode(from: &reader, version: version)
      try reader.expectEnd()
      return catalog
    }
  }
}

@Suite("Indexes and default values in the file's schema (format version 3)")
struct PhysicalSchemaCodingTests {
  @Test("a snapshot keeps every entity's indexes, unique constraints and default values")
  func snapshotRoundTrip() throws {
    let store = Store()
    try store.register(Declared.descriptions)
    let bytes = SnapshotWriter.encode(store.version)
    #expect(SnapshotForge.load(UInt32.self, bytes, 8) == SnapshotFormat.version)
    let loaded = try SnapshotReader.decode(bytes, path: "test")
    #expect(loaded.catalog.entities.map(\.description) == Declared.descriptions)
    #expect(
      loaded.catalog.entity(named: "BusinessTrip")?.attributes.map(\.defaultValue) == [
        .string("untitled"), .int(7), .null, .array([.string("new")]), nil,
        .date(Date(timeIntervalSince1970: 1_777_000_000)), .string("Acme"),
      ])
  }

  @Test("journal recovery keeps the indexes and defaults of classes registered after a snapshot")
  func journalRoundTrip() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-physical-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let files = StoreFiles(path: directory.appendingPathComponent("store.mgs").path)
    do {
      let recovered = try files.recover()
      let store = Store()
      let journal = try files.openJournal(for: store, after: recovered, rewrite: true)
      store.attach(journal)
      try store.register(Declared.descriptions)
      let session = Session(store: store)
      let key = session.insert(entity: 1)
      let table = session.table(1)
      table.column(0, as: String.self)[Int(key.row)] = "Lisbon"
      table.column(4, as: String.self)[Int(key.row)] = "L1"
      try session.save()
      journal.close()
    }
    let recovered = try files.recover()
    let version = try #require(recovered.version)
    #expect(recovered.report.replayedRecords == 1)
    #expect(version.catalog.entities.map(\.description) == Declared.descriptions)
    #expect(version.tables[1].liveCount == 1)
  }

  @Test("a schema in the layout of version 2 reads without indexes or defaults")
  func versionTwoLayout() throws {
    let catalog = try Declared.catalog()
    let old = Declared.payload(catalog, version: 2)
    #expect(old.count < Declared.payload(catalog).count)
    let read = try Declared.decode(old, version: 2)
    #expect(read.entities.allSatisfy { $0.description.indexes.isEmpty })
    #expect(
      read.entities.allSatisfy { $0.description.attributes.allSatisfy { $0.defaultValue == nil } })
    #expect(
      zip(read.entities, catalog.entities).allSatisfy {
        $0.description.hasSameDefinition(as: $1.description)
      })
    // The same bytes read as version 3 run out where the new fields were expected.
    #expect(throws: SnapshotError.self) { try Declared.decode(old, version: 3) }
  }

  @Test("a version 2 snapshot, header and all, still opens")
  func versionTwoFile() throws {
    let store = Store()
    try store.register(Declared.descriptions)
    // Columns as version 2 lays them out (that of version 3), the schema as version 2 did.
    var forge = SnapshotForge(SnapshotWriter.encode(store.version, formatVersion: 3))
    forge.header.replaceSubrange(8..<12, with: [2, 0, 0, 0])
    forge.blocks[0].payload = Declared.payload(store.catalog, version: 2)
    let loaded = try SnapshotReader.decode(forge.assemble(), path: "v2")
    #expect(loaded.catalog.entities.map(\.name) == ["Trip", "BusinessTrip"])
    #expect(loaded.catalog.entities.allSatisfy { $0.description.indexes.isEmpty })
  }

  @Test(
    "bad values in the new fields are clear errors",
    arguments: [
      (
        "index on a missing attribute",
        [
          EntityDescription(
            name: "T", attributes: [AttributeDescription(name: "a", valueType: .int)],
            indexes: [IndexDefinition(.ordered, on: "missing")])
        ],
        "index ordered(missing) of T names no attribute of T"
      ),
      (
        "index on data",
        [
          EntityDescription(
            name: "T", attributes: [AttributeDescription(name: "blob", valueType: .data)],
            indexes: [IndexDefinition(.hash, on: "blob")])
        ],
        "index hash(blob) of T: Data attributes cannot be indexed"
      ),
      (
        "default of the wrong type",
        [
          EntityDescription(
            name: "T",
            attributes: [
              AttributeDescription(name: "n", valueType: .int, defaultValue: .string("seven"))
            ])
        ],
        "default value \"seven\" does not fit attribute n of type Int"
      ),
      (
        "nil default of a required attribute",
        [
          EntityDescription(
            name: "T",
            attributes: [AttributeDescription(name: "n", valueType: .int, defaultValue: .null)])
        ],
        "default value nil does not fit attribute n of type Int"
      ),
    ])
  func badDeclarations(_ label: String, _ descriptions: [EntityDescription], _ message: String)
    throws
  {
    // The catalog does not check these itself; the reader must.
    let catalog = try SchemaCatalog().adding(descriptions)
    let error = try #require(throws: SnapshotError.self, "\(label)") {
      try Declared.decode(Declared.payload(catalog))
    }
    #expect(error.code == .malformed)
    #expect(error.message.contains(message), "\(error.message)")
  }

  @Test("unknown tags and flags in the new fields are clear errors, at their offset")
  func badBytes() throws {
    let catalog = try SchemaCatalog().adding([
      EntityDescription(
        name: "T",
        attributes: [AttributeDescription(name: "n", valueType: .int, defaultValue: .int(1))],
        indexes: [IndexDefinition(.ordered, on: "n")])
    ])
    let good = Declared.payload(catalog)
    #expect(try Declared.decode(good).entities[0].description == catalog.entities[0].description)
    // Layout: count 8, name 4+1, parent 1, attribute count 8, name 4+1, type 1, flags 1,
    // width 1 (at 29), original name 1, default flag 1 (at 31), tag 1, Int 8,
    // relationships 8, constraints 8, index count 8, index kind 1 (at 65), name 4+1, unique
    // flag 1 (at 71). An error names the offset just past the byte read.
    let cases: [(offset: Int, byte: UInt8, message: String)] = [
      (29, 8, "unknown attribute width tag 8"),
      (31, 2, "2 is not a default value's flag"),
      (32, 99, "unknown default value tag 99"),
      (65, 7, "unknown index kind 7"),
      (71, 2, "2 is not an index's unique flag"),
    ]
    for (offset, byte, message) in cases {
      var bad = good
      bad[offset] = byte
      let error = try #require(throws: SnapshotError.self) { try Declared.decode(bad) }
      #expect(error.message == message, "\(error.message)")
      #expect(error.offset == offset + 1)
    }
    // Tag 7 is Float, which narrows no Int.
    var float = good
    float[29] = 7
    let error = try #require(throws: SnapshotError.self) { try Declared.decode(float) }
    #expect(
      error.message == "schema is inconsistent: T.n: 'n' stores Int, which Float does not narrow")
    for length in 0..<good.count {
      #expect(throws: SnapshotError.self) { try Declared.decode(Array(good[..<length])) }
    }
  }

  @Test("descriptions that differ only in indexes and defaults have the same definition")
  func physicalDifferencesAreNoConflict() throws {
    let plain = EntityDescription(
      name: "T", attributes: [AttributeDescription(name: "n", valueType: .int)])
    var declared = plain
    declared.indexes = [IndexDefinition(.ordered, on: "n")]
    declared.attributes[0].defaultValue = .int(7)
    #expect(plain != declared)
    #expect(plain.hasSameDefinition(as: declared))
    let catalog = try SchemaCatalog().adding([declared])
    let again = try catalog.adding([plain])
    #expect(again.entity(named: "T")?.description == declared)
    #expect(catalog.differences(to: try SchemaCatalog().adding([plain])).isEmpty)
    var other = plain
    other.attributes[0].isOptional = true
    #expect(throws: SchemaError.self) { try catalog.adding([other]) }
  }
}
