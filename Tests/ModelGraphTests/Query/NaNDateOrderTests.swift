import Foundation
import ModelGraph
import Testing

/// A visit with an indexed `Date` and an optional one without an index.
final class NaNDateVisit: PersistentModel, IndexedModel {
  @Attribute var serial: Int
  @Attribute var day: Date
  @Attribute var spare: Date?

  static var indexes: [ModelIndex] {
    [.ordered(\NaNDateVisit.day), .hash(\NaNDateVisit.spare)]
  }

  convenience init(serial: Int, day: Date, spare: Date?) {
    self.init()
    self.serial = serial
    self.day = day
    self.spare = spare
  }
}

/// A `Date` whose interval is NaN (`Date(timeIntervalSinceReferenceDate: .nan)`) in sorts and
/// ordered indexes, as `NaNOrderTests` checks for `Double`: an index sorted with `<` put NaN
/// dates anywhere, so a range lookup skipped matching rows and a sort interleaved them. A NaN
/// date sorts after `nil` and before every date; `==`, `<` and `>` never match it.
@Suite("NaN dates in sorts and ordered indexes")
struct NaNDateOrderTests {
  static let nan = Date(timeIntervalSinceReferenceDate: .nan)
  static let values: [Date] = (0..<60).map {
    $0 % 3 == 0 ? nan : Date(timeIntervalSinceReferenceDate: Double(($0 * 7) % 40) * 86_400)
  }
  static func day(_ number: Double) -> Date {
    Date(timeIntervalSinceReferenceDate: number * 86_400)
  }

  static func make() throws -> (ModelContext, [NaNDateVisit]) {
    let container = try ModelContainer(
      for: NaNDateVisit.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
    let context = ModelContext(container)
    var visits: [NaNDateVisit] = []
    for (serial, value) in values.enumerated() {
      let visit = NaNDateVisit(serial: serial, day: value, spare: serial % 5 == 0 ? nil : value)
      context.insert(visit)
      visits.append(visit)
    }
    try context.save()
    return (context, visits)
  }

  @Test("range lookups on an ordered index agree with a filter of the values")
  func ranges() throws {
    let (context, visits) = try Self.make()
    let (twenty, ten, seven, twentyOne) = (Self.day(20), Self.day(10), Self.day(7), Self.day(21))
    let above = try context.fetch(
      FetchDescriptor<NaNDateVisit>(predicate: #Predicate { $0.day > twenty }))
    #expect(Set(above.map(\.serial)) == Set(visits.filter { $0.day > twenty }.map(\.serial)))
    let below = try context.fetch(
      FetchDescriptor<NaNDateVisit>(predicate: #Predicate { $0.day < ten }))
    #expect(Set(below.map(\.serial)) == Set(visits.filter { $0.day < ten }.map(\.serial)))
    let between = try context.fetchCount(
      FetchDescriptor<NaNDateVisit>(
        predicate: #Predicate { $0.day >= seven && $0.day <= twentyOne }))
    #expect(between == visits.filter { $0.day >= seven && $0.day <= twentyOne }.count)
    let spareAbove = try context.fetchCount(
      FetchDescriptor<NaNDateVisit>(
        predicate: #Predicate { $0.spare.flatMap { $0 > ten } ?? false }))
    #expect(spareAbove == visits.filter { $0.spare.map { $0 > ten } ?? false }.count)
    // `==`, `<` and `>` with NaN never hold, through an index or not; `>=` and `<=` always
    // do, as Swift derives them (`!(a < b)`): see NaNDateInclusiveBoundTests.
    let notADate = Self.nan
    for (predicate, count) in [
      (#Predicate<NaNDateVisit> { $0.day == notADate }, 0),
      (#Predicate<NaNDateVisit> { $0.day >= notADate }, visits.count),
      (#Predicate<NaNDateVisit> { $0.day < notADate }, 0),
      (#Predicate<NaNDateVisit> { $0.spare == notADate }, 0),
    ] {
      #expect(try context.fetchCount(FetchDescriptor(predicate: predicate)) == count)
    }
  }

  /// The serials of `visits` in the order of `key`: `nil`, then NaN, then dates ascending
  /// (reversed when descending), ties by serial.
  static func expected(_ visits: [NaNDateVisit], _ key: (NaNDateVisit) -> Date?, ascending: Bool)
    -> [Int]
  {
    func rank(_ value: Date?) -> (Int, Double) {
      guard let value else { return (0, 0) }
      let interval = value.timeIntervalSinceReferenceDate
      return interval.isNaN ? (1, 0) : (2, interval)
    }
    return visits.sorted { a, b in
      let (x, y) = (rank(key(a)), rank(key(b)))
      if x != y { return ascending ? x < y : y < x }
      return a.serial < b.serial
    }.map(\.serial)
  }

  @Test("sorts put NaN after nil and before dates, with and without an index")
  func sorts() throws {
    let (context, visits) = try Self.make()
    for ascending in [true, false] {
      let order: SortOrder = ascending ? .forward : .reverse
      let byDay = try context.fetch(
        FetchDescriptor<NaNDateVisit>(
          sortBy: [SortDescriptor(\.day, order: order), SortDescriptor(\.serial)]))
      #expect(byDay.map(\.serial) == Self.expected(visits, \.day, ascending: ascending))
      var firstFive = FetchDescriptor<NaNDateVisit>(
        sortBy: [SortDescriptor(\.day, order: order), SortDescriptor(\.serial)])
      firstFive.fetchLimit = 5
      #expect(
        try context.fetch(firstFive).map(\.serial)
          == Array(Self.expected(visits, \.day, ascending: ascending).prefix(5)))
      let bySpare = try context.fetch(
        FetchDescriptor<NaNDateVisit>(
          sortBy: [SortDescriptor(\.spare, order: order), SortDescriptor(\.serial)]))
      #expect(bySpare.map(\.serial) == Self.expected(visits, \.spare, ascending: ascending))
    }
  }

  @Test("a save that changes indexed NaN dates keeps the index right")
  func changes() throws {
    let (context, visits) = try Self.make()
    visits[0].day = Self.day(25)
    visits[1].day = Self.nan
    visits[3].spare = Self.day(4)
    try context.save()
    let twenty = Self.day(20)
    let above = try context.fetch(
      FetchDescriptor<NaNDateVisit>(predicate: #Predicate { $0.day > twenty }))
    #expect(Set(above.map(\.serial)) == Set(visits.filter { $0.day > twenty }.map(\.serial)))
    // Strict bounds leave NaN out; inclusive ones take it, as Swift derives `Date`'s `>=` and
    // `<=` as `!(<)` (NaNDateInclusiveBoundTests).
    let (start, end) = (Date.distantPast, Date.distantFuture)
    let dated = try context.fetchCount(
      FetchDescriptor<NaNDateVisit>(predicate: #Predicate { $0.day > start && $0.day < end }))
    #expect(dated == visits.filter { $0.day > start && $0.day < end }.count)
    #expect(dated == visits.filter { !$0.day.timeIntervalSinceReferenceDate.isNaN }.count)
    visits[3].day = Self.nan
    visits[6].day = Self.day(30)
    try context.save()
    let after = try context.fetch(
      FetchDescriptor<NaNDateVisit>(
        sortBy: [SortDescriptor(\.day), SortDescriptor(\.serial)]))
    #expect(after.map(\.serial) == Self.expected(visits, \.day, ascending: true))
  }
}
