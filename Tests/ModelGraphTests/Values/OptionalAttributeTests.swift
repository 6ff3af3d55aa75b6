import ModelGraph
import Testing

enum RTOptionalMood: Int16, Codable, Sendable, PersistentValue, CaseIterable {
  case calm = 3
  case busy = 9
}

class RTOptionals: PersistentModel {
  @Attribute var flag: Bool?
  @Attribute var int: Int?
  @Attribute var int8: Int8?
  @Attribute var int16: Int16?
  @Attribute var int32: Int32?
  @Attribute var int64: Int64?
  @Attribute var uint: UInt?
  @Attribute var uint8: UInt8?
  @Attribute var uint16: UInt16?
  @Attribute var uint32: UInt32?
  @Attribute var uint64: UInt64?
  @Attribute var double: Double?
  @Attribute var float: Float?
  @Attribute var string: String?
  @Attribute var date: Date?
  @Attribute var uuid: UUID?
  @Attribute var url: URL?
  @Attribute var data: Data?
  @Attribute var decimal: Decimal?
  @Attribute var mood: RTOptionalMood?
  @Attribute var numbers: [Int]?
}

/// Every optional attribute of an ``RTOptionals`` object, in declaration order, as text.
private func describeValues(of object: RTOptionals) -> [String] {
  let values: [Any?] = [
    object.flag, object.int, object.int8, object.int16, object.int32, object.int64, object.uint,
    object.uint8, object.uint16, object.uint32, object.uint64, object.double, object.float,
    object.string, object.date, object.uuid, object.url, object.data, object.decimal,
    object.mood, object.numbers,
  ]
  return values.map { $0.map { "\($0)" } ?? "nil" }
}

private func fill(_ object: RTOptionals) {
  object.flag = false
  object.int = 0
  object.int8 = -1
  object.int16 = 2
  object.int32 = -3
  object.int64 = 4
  object.uint = 0
  object.uint8 = 6
  object.uint16 = 7
  object.uint32 = 8
  object.uint64 = .max
  object.double = 0
  object.float = 1.5
  object.string = ""
  object.date = Date(timeIntervalSince1970: 0)
  object.uuid = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
  object.url = URL(string: "https://example.com")!
  object.data = Data()
  object.decimal = 0
  object.mood = .busy
  object.numbers = []
}

@Suite("Optional attributes round-trip")
struct OptionalAttributeTests {
  @Test("nil and zero-like values stay distinct through save and fetch", arguments: [false, true])
  func roundTrip(isSet: Bool) throws {
    let container = try makeInMemoryContainer(RTOptionals.self)
    let context = ModelContext(container)
    let object = RTOptionals()
    if isSet { fill(object) }
    let expected = describeValues(of: object)
    #expect(expected.contains("nil") != isSet)
    context.insert(object)
    try context.save()

    let fetched = try #require(
      try ModelContext(container).fetch(FetchDescriptor<RTOptionals>()).first)
    #expect(describeValues(of: fetched) == expected)
    #expect(fetched.mood == (isSet ? .busy : nil))
    #expect(fetched.numbers == (isSet ? [] : nil))
    #expect(fetched.uint64 == (isSet ? .max : nil))
  }

  @Test("a saved value set back to nil reads nil in a fresh context")
  func setBackToNil() throws {
    let container = try makeInMemoryContainer(RTOptionals.self)
    let context = ModelContext(container)
    let object = RTOptionals()
    fill(object)
    context.insert(object)
    try context.save()

    let editor = ModelContext(container)
    let edited = try #require(try editor.fetch(FetchDescriptor<RTOptionals>()).first)
    edited.string = nil
    edited.mood = nil
    edited.uint64 = nil
    edited.numbers = nil
    try editor.save()

    let fetched = try #require(
      try ModelContext(container).fetch(FetchDescriptor<RTOptionals>()).first)
    #expect(fetched.string == nil)
    #expect(fetched.mood == nil)
    #expect(fetched.uint64 == nil)
    #expect(fetched.numbers == nil)
    #expect(fetched.float == 1.5)
    #expect(fetched.int8 == -1)
  }

  @Test("an optional attribute never set saves as nil")
  func neverSetIsNil() throws {
    let context = try makeInMemoryContext(RTOptionals.self)
    let object = RTOptionals()
    object.int = 5
    context.insert(object)
    try context.save()
    let fetched = try #require(try context.fetch(FetchDescriptor<RTOptionals>()).first)
    #expect(fetched.int == 5)
    #expect(fetched.string == nil)
    #expect(fetched.decimal == nil)
  }
}
