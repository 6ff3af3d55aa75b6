import Foundation
import ModelGraph

/// A name whose `==` ignores case: the engine cannot know, so `==` on it stays with Foundation.
struct CENickname: Codable, Equatable {
  var text: String

  static func == (lhs: CENickname, rhs: CENickname) -> Bool {
    lhs.text.lowercased() == rhs.text.lowercased()
  }
}

/// A struct with the synthesized, memberwise `==`.
struct CEPoint: Codable, Equatable {
  var x: Int
  var y: Int
}

/// Attributes of `Codable` types, some whose `==` the engine evaluates, some it leaves to
/// Foundation.
final class CEItem: PersistentModel {
  @Attribute var index: Int
  @Attribute var labels: [String: String] = [:]
  @Attribute var counts: [String: Int]?
  @Attribute var nested: [String: [String]] = [:]
  @Attribute var byNumber: [Int: String] = [:]
  @Attribute var sparse: [String: Int?] = [:]
  @Attribute var identifiers: [String: UUID] = [:]
  @Attribute var readings: [String: Double] = [:]
  @Attribute var layers: [String: Int??] = [:]
  @Attribute var nickname: CENickname = CENickname(text: "")
  @Attribute var point: CEPoint = CEPoint(x: 0, y: 0)

  convenience init(index: Int) {
    self.init()
    self.index = index
  }
}

/// The values of one item, kept beside the store to compute expected results in Swift.
struct CEValues {
  var labels: [String: String]
  var counts: [String: Int]?
  var nested: [String: [String]]
  var byNumber: [Int: String]
  var sparse: [String: Int?]
  var identifiers: [String: UUID]
  var readings: [String: Double]
  var layers: [String: Int??]
  var nickname: CENickname
  var point: CEPoint

  /// Writes the values into `item`.
  func apply(to item: CEItem) {
    item.labels = labels
    item.counts = counts
    item.nested = nested
    item.byNumber = byNumber
    item.sparse = sparse
    item.identifiers = identifiers
    item.readings = readings
    item.layers = layers
    item.nickname = nickname
    item.point = point
  }
}

/// Random values from small pools, so equal values (in different spellings) recur: keys and
/// strings that are canonically equivalent but differ in bytes (`é` composed and decomposed, the
/// Kelvin sign and `K`), `-0.0` beside `0.0`, NaN, nested `nil`s.
struct CEGenerator {
  var random: SplitMix64

  private static let strings = ["a", "b", "é", "e\u{301}", "K", "\u{212A}", "", "Ab"]
  private static let doubles: [Double] = [0.0, -0.0, 1.5, -2, .nan, .infinity]
  private static let ints = [-1, 0, 1, 7, Int.max]
  private static let uuids = [UUID(), UUID(), UUID()]

  mutating func string() -> String { Self.strings.randomElement(using: &random)! }
  mutating func int() -> Int { Self.ints.randomElement(using: &random)! }

  /// A dictionary of up to three entries, keys inserted in a random order.
  mutating func dictionary<Key: Hashable, Value>(
    _ key: (inout Self) -> Key, _ value: (inout Self) -> Value
  ) -> [Key: Value] {
    var result: [Key: Value] = [:]
    for _ in 0..<Int.random(in: 0...3, using: &random) {
      let entryKey = key(&self)
      result[entryKey] = value(&self)
    }
    return result
  }

  mutating func values() -> CEValues {
    let layer: (inout Self) -> Int?? = { generator in
      switch Int.random(in: 0..<3, using: &generator.random) {
      case 0: return .none
      case 1: return .some(.none)
      default: return .some(.some(generator.int()))
      }
    }
    return CEValues(
      labels: dictionary({ $0.string() }, { $0.string() }),
      counts: Bool.random(using: &random) ? nil : dictionary({ $0.string() }, { $0.int() }),
      nested: dictionary(
        { $0.string() }, { generator in (0..<2).map { _ in generator.string() } }),
      byNumber: dictionary({ $0.int() }, { $0.string() }),
      sparse: dictionary(
        { $0.string() },
        { generator in Bool.random(using: &generator.random) ? nil : generator.int() }),
      identifiers: dictionary(
        { $0.string() }, { generator in Self.uuids.randomElement(using: &generator.random)! }),
      readings: dictionary(
        { $0.string() }, { generator in Self.doubles.randomElement(using: &generator.random)! }),
      layers: dictionary({ $0.string() }, layer),
      nickname: CENickname(text: ["ann", "Ann", "ANN", "bob"].randomElement(using: &random)!),
      point: CEPoint(
        x: Int.random(in: 0...1, using: &random), y: Int.random(in: 0...1, using: &random)))
  }
}

/// A struct declared to have the memberwise `==`, of fields the engine can compare.
struct CEAddress: Codable, Equatable, MemberwiseEquatable {
  var street: String
  var zip: Int
  var tags: [String: Bool]
  var unit: String?
}

/// Declared memberwise, but holding a `Double`: still compared by Foundation.
struct CEMeasured: Codable, Equatable, MemberwiseEquatable {
  var label: String
  var value: Double
}

/// An enum declared memberwise, with associated values.
enum CEContact: Codable, Equatable, MemberwiseEquatable {
  case none
  case email(String)
  case phone(country: Int, number: String)
}

final class CEPerson: PersistentModel {
  @Attribute var index: Int
  @Attribute var address: CEAddress
  @Attribute var measured: CEMeasured
  @Attribute var contact: CEContact?

  convenience init(index: Int, address: CEAddress, measured: CEMeasured, contact: CEContact?) {
    self.init()
    self.index = index
    self.address = address
    self.measured = measured
    self.contact = contact
  }
}
