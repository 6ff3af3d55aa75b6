import Foundation
import ModelGraph
import Testing

/// A reading with an indexed `Double` and an optional one without an index.
final class NaNOrderReading: PersistentModel, IndexedModel {
  @Attribute var serial: Int
  @Attribute var value: Double
  @Attribute var spare: Double?

  static var indexes: [ModelIndex] {
    [.ordered(\NaNOrderReading.value), .hash(\NaNOrderReading.spare)]
  }

  convenience init(serial: Int, value: Double, spare: Double?) {
    self.init()
    self.serial = serial
    self.value = value
    self.spare = spare
  }
}

/// `Double` NaN values in sorts and ordered indexes. NaN is not ordered by `<`, so an index
/// sorted with it put NaN keys anywhere: a range lookup (`value > 20`) skipped matching rows,
/// a sort interleaved NaN with numbers, and a save that changed an indexed NaN row failed a
/// debug check (a crash). Now NaN sorts after `nil` and before every number (where SQLite,
/// which stores NaN as NULL, puts it; and where the runner's `by` groups put it), and no
/// comparison matches it.
@Suite("NaN in sorts and ordered indexes")
struct NaNOrderTests {
  static let values: [Double] = (0..<60).map { $0 % 3 == 0 ? .nan : Double(($0 * 7) % 40) }

  static func make() throws -> (ModelContext, [NaNOrderReading]) {
    let container = try ModelContainer(
      for: NaNOrderReading.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
    let context = ModelContext(container)
    var readings: [NaNOrderReading] = []
    for (serial, value) in values.enumerated() {
      let reading = NaNOrderReading(
        serial: serial, value: value, spare: serial % 5 == 0 ? nil : value)
      context.insert(reading)
      readings.append(reading)
    }
    try context.save()
    return (context, readings)
  }

  @Test("range lookups on an ordered index agree with a filter of the values")
  func ranges() throws {
    let (context, readings) = try Self.make()
    let above = try context.fetch(
      FetchDescriptor<NaNOrderReading>(predicate: #Predicate { $0.value > 20 }))
    #expect(Set(above.map(\.serial)) == Set(readings.filter { $0.value > 20 }.map(\.serial)))
    let below = try context.fetch(
      FetchDescriptor<NaNOrderReading>(predicate: #Predicate { $0.value < 10 }))
    #expect(Set(below.map(\.serial)) == Set(readings.filter { $0.value < 10 }.map(\.serial)))
    let between = try context.fetchCount(
      FetchDescriptor<NaNOrderReading>(predicate: #Predicate { $0.value >= 7 && $0.value <= 21 }))
    #expect(between == readings.filter { $0.value >= 7 && $0.value <= 21 }.count)
    // No comparison with NaN holds, through an index or not.
    let notANumber = Self.values[0]
    for predicate in [
      #Predicate<NaNOrderReading> { $0.value == notANumber },
      #Predicate<NaNOrderReading> { $0.value >= notANumber },
      #Predicate<NaNOrderReading> { $0.value < notANumber },
      #Predicate<NaNOrderReading> { $0.spare == notANumber },
    ] {
      #expect(try context.fetchCount(FetchDescriptor(predicate: predicate)) == 0)
    }
  }

  /// The serials of `readings` in the order of `key`: `nil`, then NaN, then numbers ascending
  /// (reversed when descending), ties by serial.
  static func expected(
    _ readings: [NaNOrderReading], _ key: (NaNOrderReading) -> Double?, ascending: Bool
  )
    -> [Int]
  {
    func rank(_ value: Double?) -> (Int, Double) {
      guard let value else { return (0, 0) }
      return value.isNaN ? (1, 0) : (2, value)
    }
    return readings.sorted { a, b in
      let (x, y) = (rank(key(a)), rank(key(b)))
      if x != y { return ascending ? x < y : y < x }
      return a.serial < b.serial
    }.map(\.serial)
  }

  @Test("sorts put NaN after nil and before numbers, with and without an index")
  func sorts() throws {
    let (context, readings) = try Self.make()
    for ascending in [true, false] {
      let order: SortOrder = ascending ? .forward : .reverse
      let byValue = try context.fetch(
        FetchDescriptor<NaNOrderReading>(
          sortBy: [SortDescriptor(\.value, order: order), SortDescriptor(\.serial)]))
      #expect(byValue.map(\.serial) == Self.expected(readings, \.value, ascending: ascending))
      let bySpare = try context.fetch(
        FetchDescriptor<NaNOrderReading>(
          sortBy: [SortDescriptor(\.spare, order: order), SortDescriptor(\.serial)]))
      #expect(bySpare.map(\.serial) == Self.expected(readings, \.spare, ascending: ascending))
      var firstFive = FetchDescriptor<NaNOrderReading>(
        predicate: #Predicate { $0.value >= 0 || $0.value < 0 || $0.serial >= 0 },
        sortBy: [SortDescriptor(\.spare, order: order), SortDescriptor(\.serial)])
      firstFive.fetchLimit = 5
      #expect(
        try context.fetch(firstFive).map(\.serial)
          == Array(Self.expected(readings, \.spare, ascending: ascending).prefix(5)))
    }
  }

  @Test("a save that changes indexed NaN values keeps the index right")
  func changes() throws {
    let (context, readings) = try Self.make()
    readings[0].value = 25
    readings[1].value = .nan
    readings[3].spare = 4
    try context.save()
    let above = try context.fetch(
      FetchDescriptor<NaNOrderReading>(predicate: #Predicate { $0.value > 20 }))
    #expect(Set(above.map(\.serial)) == Set(readings.filter { $0.value > 20 }.map(\.serial)))
    let numbers = try context.fetchCount(
      FetchDescriptor<NaNOrderReading>(predicate: #Predicate { $0.value <= 0 || $0.value > 0 }))
    #expect(numbers == readings.filter { !$0.value.isNaN }.count)
  }
}
