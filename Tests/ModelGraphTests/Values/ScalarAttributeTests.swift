import ModelGraph
import Testing

class RTScalars: PersistentModel {
  @Attribute var flag: Bool
  @Attribute var int: Int
  @Attribute var int8: Int8
  @Attribute var int16: Int16
  @Attribute var int32: Int32
  @Attribute var int64: Int64
  @Attribute var uint: UInt
  @Attribute var uint8: UInt8
  @Attribute var uint16: UInt16
  @Attribute var uint32: UInt32
  @Attribute var uint64: UInt64
  @Attribute var double: Double
  @Attribute var float: Float
  @Attribute var string: String
  @Attribute var date: Date
  @Attribute var uuid: UUID
  @Attribute var url: URL
  @Attribute var data: Data
  @Attribute var decimal: Decimal
}

/// One value of every scalar attribute type.
struct RTScalarSample: Equatable, Sendable, CustomTestStringConvertible {
  var label: String
  var flag: Bool
  var int: Int
  var int8: Int8
  var int16: Int16
  var int32: Int32
  var int64: Int64
  var uint: UInt
  var uint8: UInt8
  var uint16: UInt16
  var uint32: UInt32
  var uint64: UInt64
  var double: Double
  var float: Float
  var string: String
  var date: Date
  var uuid: UUID
  var url: URL
  var data: Data
  var decimal: Decimal

  var testDescription: String { label }

  static let minimums = RTScalarSample(
    label: "minimums", flag: false, int: .min, int8: .min, int16: .min, int32: .min, int64: .min,
    uint: .min, uint8: .min, uint16: .min, uint32: .min, uint64: .min,
    double: -.greatestFiniteMagnitude, float: -.greatestFiniteMagnitude, string: "",
    date: .distantPast, uuid: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
    url: URL(string: "about:blank")!, data: Data(),
    decimal: Decimal(string: "-99999999999999999999.999999999")!)

  static let maximums = RTScalarSample(
    label: "maximums", flag: true, int: .max, int8: .max, int16: .max, int32: .max, int64: .max,
    uint: .max, uint8: .max, uint16: .max, uint32: .max, uint64: .max,
    double: .infinity, float: .greatestFiniteMagnitude, string: String(repeating: "z", count: 5000),
    date: .distantFuture, uuid: UUID(uuidString: "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")!,
    url: URL(fileURLWithPath: "/tmp/some dir/file.txt"), data: Data(repeating: 0xFF, count: 70_000),
    decimal: Decimal(string: "12345678901234567890.123456789")!)

  static let typical = RTScalarSample(
    label: "typical", flag: true, int: -42, int8: -7, int16: 1234, int32: -123_456,
    int64: 9_876_543_210, uint: 42, uint8: 200, uint16: 60_000, uint32: 4_000_000_000,
    uint64: 18_000_000_000_000_000_000, double: 0.1, float: .pi, string: "Zürich, 東京 🚆\u{0}end",
    date: Date(timeIntervalSinceReferenceDate: 765_432_109.125),
    uuid: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
    url: URL(string: "https://example.com/trips?id=7#top")!, data: Data([0, 1, 2, 0xFE, 0xFF]),
    decimal: Decimal(string: "0.3")!)

  static let all = [minimums, maximums, typical]
}

extension RTScalars {
  convenience init(_ sample: RTScalarSample) {
    self.init()
    assign(sample)
  }

  func assign(_ sample: RTScalarSample) {
    flag = sample.flag
    int = sample.int
    int8 = sample.int8
    int16 = sample.int16
    int32 = sample.int32
    int64 = sample.int64
    uint = sample.uint
    uint8 = sample.uint8
    uint16 = sample.uint16
    uint32 = sample.uint32
    uint64 = sample.uint64
    double = sample.double
    float = sample.float
    string = sample.string
    date = sample.date
    uuid = sample.uuid
    url = sample.url
    data = sample.data
    decimal = sample.decimal
  }

  func sample(label: String) -> RTScalarSample {
    RTScalarSample(
      label: label, flag: flag, int: int, int8: int8, int16: int16, int32: int32, int64: int64,
      uint: uint, uint8: uint8, uint16: uint16, uint32: uint32, uint64: uint64, double: double,
      float: float, string: string, date: date, uuid: uuid, url: url, data: data,
      decimal: decimal)
  }
}

/// Why three tests do not run on PostgreSQL.
private let nulOnPostgreSQL: Comment =
  "the typical sample's string holds U+0000, which PostgreSQL text cannot hold (the save throws)"

@Suite("Scalar attributes round-trip")
struct ScalarAttributeTests {
  @Test(
    "values read back before insert, after insert, after save and in a fresh context",
    .disabled(if: testsRunOnPostgreSQL, nulOnPostgreSQL), arguments: RTScalarSample.all)
  func roundTrip(sample: RTScalarSample) throws {
    let container = try makeInMemoryContainer(RTScalars.self)
    let context = ModelContext(container)
    let object = RTScalars(sample)
    #expect(object.sample(label: sample.label) == sample)
    context.insert(object)
    #expect(object.sample(label: sample.label) == sample)
    try context.save()
    #expect(object.sample(label: sample.label) == sample)

    let fresh = ModelContext(container)
    let fetched = try fresh.fetch(FetchDescriptor<RTScalars>())
    try #require(fetched.count == 1)
    #expect(fetched[0] !== object)
    #expect(fetched[0].sample(label: sample.label) == sample)
  }

  @Test(
    "a saved object changed to other values reads them back everywhere",
    .disabled(if: testsRunOnPostgreSQL, nulOnPostgreSQL),
    arguments: zip(RTScalarSample.all, RTScalarSample.all.reversed()))
  func update(from old: RTScalarSample, to new: RTScalarSample) throws {
    let container = try makeInMemoryContainer(RTScalars.self)
    let writer = ModelContext(container)
    writer.insert(RTScalars(old))
    try writer.save()

    let editor = ModelContext(container)
    let object = try #require(try editor.fetch(FetchDescriptor<RTScalars>()).first)
    object.assign(new)
    #expect(object.sample(label: new.label) == new)
    try editor.save()

    let reader = ModelContext(container)
    let fetched = try #require(try reader.fetch(FetchDescriptor<RTScalars>()).first)
    #expect(fetched.sample(label: new.label) == new)
  }

  @Test(
    "a Float keeps its exact bits, including tiny and negative values",
    .disabled(if: testsRunOnPostgreSQL, nulOnPostgreSQL),
    arguments: [Float.pi, -.leastNonzeroMagnitude, 1 / 3, -0.0, Float(16_777_216).nextUp] as [Float]
  )
  func floatExact(value: Float) throws {
    let context = try makeInMemoryContext(RTScalars.self)
    var sample = RTScalarSample.typical
    sample.float = value
    context.insert(RTScalars(sample))
    try context.save()
    let fetched = try #require(try context.fetch(FetchDescriptor<RTScalars>()).first)
    #expect(fetched.float.bitPattern == value.bitPattern)
  }
}
