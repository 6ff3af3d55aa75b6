import Testing

@testable import ModelGraphCore

/// `Double` attributes declared as Swift `Float` (``AttributeDescription/isFloat32``): their
/// values are stored as `Double`s, and the engine keeps them `Float` values, so the process
/// that declares `Float` reads back what was saved and a query compares what Swift compares.
@Suite("Float attributes in the schema")
struct FloatWidthTests {
  /// `Probe { reading: Float, peak: Float?, samples: [Float], wide: Double }`.
  static func probe(reading: Bool = true) -> EntityDescription {
    EntityDescription(
      name: "Probe",
      attributes: [
        AttributeDescription(name: "reading", valueType: .double, isFloat32: reading),
        AttributeDescription(name: "peak", valueType: .double, isOptional: true, isFloat32: true),
        AttributeDescription(name: "samples", valueType: .array(.double), isFloat32: true),
        AttributeDescription(name: "wide", valueType: .double),
      ])
  }

  static let reading = 0
  static let peak = 1
  static let samples = 2
  static let wide = 3

  @Test("a save refuses a value that is no Float value, naming it; Float values save")
  func saveRefusesNonFloat() throws {
    let store = Store()
    try store.register([Self.probe()])
    let session = Session(store: store)
    let key = session.insert(entity: 0)
    session.set(0.1, slot: Self.reading, of: key)
    session.set(1e300 as Double?, slot: Self.peak, of: key)
    session.set([0.5, -1e-50], slot: Self.samples, of: key)
    session.set(0.1, slot: Self.wide, of: key)
    let violations = session.validate()
    #expect(violations.map(\.rule) == [.outOfRange, .outOfRange, .outOfRange])
    #expect(
      violations.map(\.description) == [
        "Probe.reading: 0.1 is no Float value (the nearest is 0.10000000149011612)",
        "Probe.peak: 1e+300 is out of the range of Float (-3.4028234663852886e+38..."
          + "3.4028234663852886e+38)",
        "Probe.samples: element 1: -1e-50 is no Float value (the nearest is -0.0)",
      ])
    #expect(violations.allSatisfy { $0.key == key })
    // Every Float value fits, infinities and NaN included.
    session.set(Double(Float(0.1)), slot: Self.reading, of: key)
    session.set(Double(Float.greatestFiniteMagnitude) as Double?, slot: Self.peak, of: key)
    session.set(
      [Double.infinity, -Double.infinity, Double.nan, Double(Float.leastNonzeroMagnitude)],
      slot: Self.samples, of: key)
    #expect(session.validate().isEmpty)
    try session.save()

    // A saved object: only the attributes written are checked.
    let editor = Session(store: store)
    editor.set(1.0 / 3.0, slot: Self.reading, of: key)
    #expect(
      editor.validate().map(\.description) == [
        "Probe.reading: 0.3333333333333333 is no Float value (the nearest is 0.3333333432674408)"
      ])
    editor.set(Double(Float(1.0 / 3.0)), slot: Self.reading, of: key)
    #expect(editor.validate().isEmpty)
  }

  @Test("Float narrows only Double attributes; a default must be a Float value")
  func schemaChecksFloat() throws {
    let text = EntityDescription(
      name: "Bad",
      attributes: [AttributeDescription(name: "s", valueType: .string, isFloat32: true)])
    let both = EntityDescription(
      name: "Bad",
      attributes: [
        AttributeDescription(
          name: "n", valueType: .int, integerWidth: .int8, isFloat32: true)
      ])
    let fallback = EntityDescription(
      name: "Bad",
      attributes: [
        AttributeDescription(
          name: "f", valueType: .double, defaultValue: .double(0.1), isFloat32: true)
      ])
    for description in [text, both, fallback] {
      #expect(throws: SchemaError.self) { try SchemaCatalog().adding([description]) }
    }
    do {
      _ = try SchemaCatalog().adding([fallback])
    } catch {
      #expect("\(error)".contains("0.1 is no Float value"), "\(error)")
    }
    #expect(
      Self.probe().attributes.map(\.declaredTypeName) == ["Float", "Float?", "[Float]", "Double"])
  }

  @Test("the snapshot's and the journal's schema layout keep the width; format 7 keeps none")
  func schemaCoding() throws {
    let catalog = try SchemaCatalog().adding([Self.probe(), IntegerWidthTests.gauge()])
    for (version, floats, integers) in [
      (
        SnapshotFormat.version, [true, true, true, false],
        [QueryIntegerWidth.int8, .uint16, .int16, nil]
      ),
      (
        SnapshotFormat.integerWidthVersion - 1, [false, false, false, false], [nil, nil, nil, nil]
      ),
    ] {
      var writer = ByteWriter()
      catalog.encode(into: &writer, version: version)
      let bytes = writer.bytes
      let decoded = try bytes.withUnsafeBytes { raw in
        var reader = ByteReader(raw, fileOffset: 0, path: "test", section: "schema")
        return try SchemaCatalog.decode(from: &reader, version: version)
      }
      #expect(decoded.entities[0].attributes.map(\.isFloat32) == floats)
      #expect(decoded.entities[1].attributes.map(\.integerWidth) == integers)
    }
  }

  @Test("a database's schema record keeps the width; one written before it reads as Double")
  func encodedBytes() throws {
    let catalog = try SchemaCatalog().adding([Self.probe()])
    let current = try SchemaCatalog(encoded: catalog.encodedBytes, source: "test")
    #expect(current.entities[0].attributes.map(\.isFloat32) == [true, true, true, false])
    var older = ByteWriter()
    catalog.encode(into: &older, version: SnapshotFormat.physicalSchemaVersion)
    let old = try SchemaCatalog(encoded: older.bytes, source: "test")
    #expect(old.entities[0].attributes.map(\.isFloat32) == [false, false, false, false])
  }

  @Test("migration adopts Float when every stored value is one, and refuses otherwise")
  func migrationChecksNarrowing() throws {
    let store = Store()
    try store.register([Self.probe(reading: false)])
    let session = Session(store: store)
    let key = session.insert(entity: 0)
    session.set(0.5, slot: Self.reading, of: key)
    session.set([Double](), slot: Self.samples, of: key)
    session.set(0.0, slot: Self.wide, of: key)
    try session.save()
    let narrow = try SchemaCatalog().adding([Self.probe(reading: true)])
    let sorted = store.version.catalog.automaticMigration(to: narrow)
    #expect(sorted.needsPlan.isEmpty)
    #expect(
      sorted.automatic.map(\.description) == ["Probe.reading: attribute type Double became Float"])
    let migrated = try store.version.migrated(to: narrow, mode: .lightweight).version
    #expect(migrated.catalog.entities[0].attributes[Self.reading].isFloat32)
    #expect(migrated.widthViolations().count == 0)

    let editor = Session(store: store)
    editor.set(0.1, slot: Self.reading, of: key)
    try editor.save()
    #expect {
      try store.version.migrated(to: narrow, mode: .lightweight)
    } throws: { error in
      let error = error as? MigrationError
      return error?.code == .invalidData
        && error?.message == "Probe.reading is Float now, but Probe/0.0 holds a value it cannot: "
          + "0.1 is no Float value (the nearest is 0.10000000149011612); rewrite such values "
          + "first (in a custom stage, or with the runner)"
    }
    // Widening never checks.
    let wide = try SchemaCatalog().adding([Self.probe(reading: false)])
    let fromNarrow = try migrated.migrated(to: wide, mode: .lightweight).version
    #expect(!fromNarrow.catalog.entities[0].attributes[Self.reading].isFloat32)
  }

  @Test("a stored version lists the values that are no Float values")
  func storedViolations() throws {
    let store = Store()
    try store.register([Self.probe(reading: false)])
    let session = Session(store: store)
    for value in [0.5, 0.1, 1e300] {
      let key = session.insert(entity: 0)
      session.set(value, slot: Self.reading, of: key)
      session.set([Double](), slot: Self.samples, of: key)
      session.set(0.0, slot: Self.wide, of: key)
    }
    try session.save()
    let narrow = try SchemaCatalog().adding([Self.probe(reading: true)])
    let version = StoreVersion(
      number: store.version.number, catalog: narrow, tables: store.version.tables)
    let (violations, count) = version.widthViolations(limit: 1)
    #expect(count == 2)
    #expect(
      violations.map(\.description) == [
        "Probe.reading: 0.1 is no Float value (the nearest is 0.10000000149011612)"
      ])
    #expect(violations.first?.key.row == 1)
  }
}
