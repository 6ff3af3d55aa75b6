import ModelGraph
import Testing

enum RTMood: String, Codable, Sendable, PersistentValue, CaseIterable {
  case calm
  case busy
  case away
}

/// A raw-value enum that is not `CaseIterable` and has no case for the zero raw value.
enum RTLevel: Int, Codable, Sendable, PersistentValue {
  case low = 1
  case high = 7
}

struct RTGeo: Codable, Equatable {
  var latitude: Double
  var longitude: Double
}

struct RTAddress: CompositeValue, Equatable {
  var street: String
  var zip: Int
  var tags: [String]
  var geo: RTGeo?
}

class RTComposites: PersistentModel {
  @Attribute var mood: RTMood
  @Attribute var level: RTLevel
  @Attribute var optionalMood: RTMood?
  @Attribute var moods: [RTMood]
  @Attribute var ints: [Int]
  @Attribute var bytes: [UInt8]
  @Attribute var strings: [String]
  @Attribute var dates: [Date]
  @Attribute var doubles: [Double]
  @Attribute var optionalInts: [Int]?
  @Attribute var address: RTAddress
  @Attribute var optionalAddress: RTAddress?
  @Attribute var addresses: [RTAddress]
  @Attribute var visits = 3
  @Attribute var note: String? = "default"
}

private let home = RTAddress(
  street: "1 Rue de Rivoli", zip: 75_001, tags: ["home", "paris"],
  geo: RTGeo(latitude: 48.86, longitude: 2.35))
private let office = RTAddress(street: "", zip: 0, tags: [], geo: nil)

private func makeFilled() -> RTComposites {
  let object = RTComposites()
  object.mood = .away
  object.level = .high
  object.optionalMood = .calm
  object.moods = [.busy, .calm, .busy]
  object.ints = [3, -1, .max, .min]
  object.bytes = [0, 255, 7]
  object.strings = ["a", "", "ü"]
  object.dates = [Date(timeIntervalSince1970: 1), .distantFuture]
  object.doubles = []
  object.optionalInts = [1, 2]
  object.address = home
  object.optionalAddress = office
  object.addresses = [office, home]
  return object
}

@Suite("Enum, array and composite attributes round-trip")
struct CompositeAttributeTests {
  @Test("every value reads back from a fresh context")
  func roundTrip() throws {
    let container = try makeInMemoryContainer(RTComposites.self)
    let context = ModelContext(container)
    context.insert(makeFilled())
    try context.save()

    let fetched = try #require(
      try ModelContext(container).fetch(FetchDescriptor<RTComposites>()).first)
    #expect(fetched.mood == .away)
    #expect(fetched.level == .high)
    #expect(fetched.optionalMood == .calm)
    #expect(fetched.moods == [.busy, .calm, .busy])
    #expect(fetched.ints == [3, -1, .max, .min])
    #expect(fetched.bytes == [0, 255, 7])
    #expect(fetched.strings == ["a", "", "ü"])
    #expect(fetched.dates == [Date(timeIntervalSince1970: 1), .distantFuture])
    #expect(fetched.doubles.isEmpty)
    #expect(fetched.optionalInts == [1, 2])
    #expect(fetched.address == home)
    #expect(fetched.optionalAddress == office)
    #expect(fetched.addresses == [office, home])
  }

  @Test("declared initial values are saved when the property is never set")
  func initialValues() throws {
    let container = try makeInMemoryContainer(RTComposites.self)
    let context = ModelContext(container)
    let object = makeFilled()
    #expect(object.visits == 3)
    #expect(object.note == "default")
    context.insert(object)
    try context.save()
    let fetched = try #require(
      try ModelContext(container).fetch(FetchDescriptor<RTComposites>()).first)
    #expect(fetched.visits == 3)
    #expect(fetched.note == "default")
  }

  @Test("a changed composite value and a nil optional composite are saved")
  func changeComposite() throws {
    let container = try makeInMemoryContainer(RTComposites.self)
    let context = ModelContext(container)
    let object = makeFilled()
    context.insert(object)
    try context.save()
    var moved = home
    moved.tags.append("moved")
    moved.geo = nil
    object.address = moved
    object.optionalAddress = nil
    object.moods.append(.away)
    try context.save()

    let fetched = try #require(
      try ModelContext(container).fetch(FetchDescriptor<RTComposites>()).first)
    #expect(fetched.address == moved)
    #expect(fetched.optionalAddress == nil)
    #expect(fetched.moods == [.busy, .calm, .busy, .away])
  }

  @Test(
    "a raw-value enum captured in a local constant filters a #Predicate fetch",
    arguments: RTMood.allCases)
  func enumPredicate(mood: RTMood) throws {
    let context = try makeInMemoryContext(RTComposites.self)
    for (index, value) in [RTMood.calm, .busy, .busy, .away, .busy].enumerated() {
      let object = makeFilled()
      object.mood = value
      object.visits = index
      context.insert(object)
    }
    try context.save()
    let wanted = mood
    let fetched = try context.fetch(
      FetchDescriptor<RTComposites>(
        predicate: #Predicate { $0.mood == wanted }, sortBy: [SortDescriptor(\.visits)]))
    let expected = [RTMood.calm, .busy, .busy, .away, .busy].indices.filter {
      [RTMood.calm, .busy, .busy, .away, .busy][$0] == mood
    }
    #expect(fetched.map(\.visits) == expected)
  }
}
