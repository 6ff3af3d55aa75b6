import Testing

@testable import ModelGraphCore

/// Integer attributes declared with a Swift type narrower than 64 bits
/// (``AttributeDescription/integerWidth``): their values are stored as 64 bits, and the engine
/// keeps them within the declared type's range, so the process that declares it can read them.
@Suite("Narrow integer widths in the schema")
struct IntegerWidthTests {
  /// `Gauge { small: Int8, level: UInt16?, samples: [Int16], wide: Int }`.
  static func gauge(small: QueryIntegerWidth? = .int8) -> EntityDescription {
    EntityDescription(
      name: "Gauge",
      attributes: [
        AttributeDescription(name: "small", valueType: .int, integerWidth: small),
        AttributeDescription(
          name: "level", valueType: .uint, isOptional: true, integerWidth: .uint16),
        AttributeDescription(name: "samples", valueType: .array(.int), integerWidth: .int16),
        AttributeDescription(name: "wide", valueType: .int),
      ])
  }

  static let small = 0
  static let level = 1
  static let samples = 2
  static let wide = 3

  @Test("a save refuses a value out of the declared type, naming it; one within it saves")
  func saveRefusesOutOfRange() throws {
    let store = Store()
    try store.register([Self.gauge()])
    let session = Session(store: store)
    let key = session.insert(entity: 0)
    session.set(Int64(300), slot: Self.small, of: key)
    session.set(UInt64(70_000) as UInt64?, slot: Self.level, of: key)
    session.set([Int64(1), Int64(-40_000)], slot: Self.samples, of: key)
    session.set(Int64.max, slot: Self.wide, of: key)
    let violations = session.validate()
    #expect(violations.map(\.rule) == [.outOfRange, .outOfRange, .outOfRange])
    #expect(
      violations.map(\.description) == [
        "Gauge.small: 300 is out of the range of Int8 (-128...127)",
        "Gauge.level: 70000 is out of the range of UInt16 (0...65535)",
        "Gauge.samples: element 1: -40000 is out of the range of Int16 (-32768...32767)",
      ])
    #expect(violations.allSatisfy { $0.key == key })
    session.set(Int64(-128), slot: Self.small, of: key)
    session.set(nil as UInt64?, slot: Self.level, of: key)
    session.set([Int64(32_767)], slot: Self.samples, of: key)
    #expect(session.validate().isEmpty)
    try session.save()

    // A saved object: only the attributes written are checked.
    let editor = Session(store: store)
    editor.set(Int64(128), slot: Self.small, of: key)
    #expect(
      editor.validate().map(\.description) == [
        "Gauge.small: 128 is out of the range of Int8 (-128...127)"
      ])
    editor.set(Int64(127), slot: Self.small, of: key)
    #expect(editor.validate().isEmpty)
  }

  @Test("a width must narrow the attribute's integer type; a default must fit it")
  func schemaChecksWidth() throws {
    let text = EntityDescription(
      name: "Bad",
      attributes: [AttributeDescription(name: "s", valueType: .string, integerWidth: .int8)])
    let sign = EntityDescription(
      name: "Bad",
      attributes: [AttributeDescription(name: "n", valueType: .uint, integerWidth: .int8)])
    let fallback = EntityDescription(
      name: "Bad",
      attributes: [
        AttributeDescription(
          name: "n", valueType: .int, defaultValue: .int(200), integerWidth: .int8)
      ])
    for description in [text, sign, fallback] {
      #expect(throws: SchemaError.self) { try SchemaCatalog().adding([description]) }
    }
    do {
      _ = try SchemaCatalog().adding([fallback])
    } catch {
      #expect("\(error)".contains("200 is out of the range of Int8 (-128...127)"))
    }
    #expect(
      Self.gauge().attributes.map(\.declaredTypeName) == ["Int8", "UInt16?", "[Int16]", "Int"])
  }

  @Test("format 8 keeps each attribute's width; format 7 keeps none (64 bits)")
  func schemaCoding() throws {
    let catalog = try SchemaCatalog().adding([Self.gauge()])
    for (version, expected) in [
      (SnapshotFormat.version, [QueryIntegerWidth.int8, .uint16, .int16, nil]),
      (SnapshotFormat.integerWidthVersion - 1, [nil, nil, nil, nil]),
    ] {
      var writer = ByteWriter()
      catalog.encode(into: &writer, version: version)
      let bytes = writer.bytes
      let decoded = try bytes.withUnsafeBytes { raw in
        var reader = ByteReader(raw, fileOffset: 0, path: "test", section: "schema")
        return try SchemaCatalog.decode(from: &reader, version: version)
      }
      #expect(decoded.entities[0].attributes.map(\.integerWidth) == expected)
    }
    #expect(SnapshotFormat.version == 8)
  }

  @Test("a database's schema record keeps the widths; one written before them still reads")
  func encodedBytes() throws {
    let catalog = try SchemaCatalog().adding([Self.gauge()])
    let current = try SchemaCatalog(encoded: catalog.encodedBytes, source: "test")
    #expect(current.entities[0].attributes.map(\.integerWidth) == [.int8, .uint16, .int16, nil])
    var older = ByteWriter()
    catalog.encode(into: &older, version: SnapshotFormat.physicalSchemaVersion)
    let old = try SchemaCatalog(encoded: older.bytes, source: "test")
    #expect(old.entities[0].attributes.map(\.integerWidth) == [nil, nil, nil, nil])
    var future = catalog.encodedBytes
    future[8] = UInt8(SnapshotFormat.version + 1)
    #expect(throws: SnapshotError.self) { try SchemaCatalog(encoded: future, source: "test") }
  }

  @Test("migration adopts a narrower width when every stored value fits, and refuses otherwise")
  func migrationChecksNarrowing() throws {
    let store = Store()
    try store.register([Self.gauge(small: nil)])
    let session = Session(store: store)
    let key = session.insert(entity: 0)
    session.set(Int64(100), slot: Self.small, of: key)
    try session.save()
    let narrow = try SchemaCatalog().adding([Self.gauge(small: .int8)])
    let sorted = store.version.catalog.automaticMigration(to: narrow)
    #expect(sorted.needsPlan.isEmpty)
    #expect(
      sorted.automatic.map(\.description) == ["Gauge.small: attribute type Int became Int8"])
    let migrated = try store.version.migrated(to: narrow, mode: .lightweight).version
    #expect(migrated.catalog.entities[0].attributes[Self.small].integerWidth == .int8)
    #expect(migrated.widthViolations().count == 0)

    let editor = Session(store: store)
    editor.set(Int64(200), slot: Self.small, of: key)
    try editor.save()
    #expect {
      try store.version.migrated(to: narrow, mode: .lightweight)
    } throws: { error in
      let error = error as? MigrationError
      return error?.code == .invalidData
        && error?.message == "Gauge.small is Int8 now, but Gauge/0.0 holds a value it cannot: "
          + "200 is out of the range of Int8 (-128...127); rewrite such values first (in a "
          + "custom stage, or with the runner)"
    }
    // Widening never checks.
    let wider = try SchemaCatalog().adding([Self.gauge(small: .int16)])
    let fromNarrow = try store.version.migrated(to: wider, mode: .lightweight).version
    #expect(fromNarrow.widthViolations().count == 0)
  }

  @Test("a stored version lists the values out of their declared widths")
  func storedViolations() throws {
    let store = Store()
    try store.register([Self.gauge(small: nil)])
    let session = Session(store: store)
    for value in [Int64(5), 300, -129] {
      let key = session.insert(entity: 0)
      session.set(value, slot: Self.small, of: key)
    }
    try session.save()
    // A version whose schema declares the width the values were saved without.
    let narrow = try SchemaCatalog().adding([Self.gauge(small: .int8)])
    let version = StoreVersion(
      number: store.version.number, catalog: narrow, tables: store.version.tables)
    let (violations, count) = version.widthViolations(limit: 1)
    #expect(count == 2)
    #expect(
      violations.map(\.description) == ["Gauge.small: 300 is out of the range of Int8 (-128...127)"]
    )
    #expect(violations.first?.key.row == 1)
  }
}
