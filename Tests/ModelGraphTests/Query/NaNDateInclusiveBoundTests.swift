import Foundation
import ModelGraph
import Testing

/// An event with ordered indexes on a `Date`, an optional `Date` and a `Double`, and the same
/// values again in attributes without an index (a scan's answer to compare with).
class NaNBoundEvent: PersistentModel, IndexedModel {
  @Attribute var serial: Int
  @Attribute var day: Date
  @Attribute var spare: Date?
  @Attribute var x: Double
  @Attribute var plain: Date
  @Attribute var plainX: Double

  class var indexes: [ModelIndex] {
    [.ordered(\NaNBoundEvent.day), .ordered(\NaNBoundEvent.spare), .ordered(\NaNBoundEvent.x)]
  }
}

/// A subclass: a fetch of ``NaNBoundEvent`` merges the indexes of both classes.
final class NaNBoundMeeting: NaNBoundEvent {
  @Attribute var room: Int
}

/// Swift derives `Date`'s `>=` and `<=` as `!(a < b)`, so a `Date` of a NaN interval is `>=`
/// and `<=` every date, and every date is `>=` and `<=` it; `Predicate.evaluate` and a scan
/// say so, and an ordered index's range left NaN keys out: the answer depended on the plan.
/// A `Double` NaN compares as IEEE says (`>=` false), through an index or not. Each fetch
/// (saved rows, then with unsaved changes laid over the index; one class and a hierarchy;
/// filtered, counted, sorted with a limit) is checked against `Predicate.evaluate` on every
/// object.
@Suite("NaN dates with inclusive bounds")
struct NaNDateInclusiveBoundTests {
  static let nan = Date(timeIntervalSinceReferenceDate: .nan)

  static func day(_ number: Int) -> Date {
    Date(timeIntervalSinceReferenceDate: Double(number) * 86_400)
  }

  /// A date, NaN for every third serial; an optional one `nil` for every fifth.
  static func fill(_ event: NaNBoundEvent, _ serial: Int) {
    let isNaN = serial % 3 == 0
    event.serial = serial
    event.day = isNaN ? nan : day((serial * 7) % 40)
    event.spare = serial % 5 == 0 ? nil : event.day
    event.x = isNaN ? .nan : Double((serial * 7) % 40)
    event.plain = event.day
    event.plainX = event.x
    (event as? NaNBoundMeeting)?.room = serial
  }

  static func make() throws -> ModelContext {
    let container = try ModelContainer(
      for: NaNBoundEvent.self, NaNBoundMeeting.self,
      configurations: ModelConfiguration(isStoredInMemoryOnly: true))
    let context = ModelContext(container)
    for serial in 0..<60 {
      let event: NaNBoundEvent = serial % 2 == 0 ? NaNBoundEvent() : NaNBoundMeeting()
      fill(event, serial)
      context.insert(event)
    }
    try context.save()
    return context
  }

  /// Predicates on `day`, `spare` and `x` with bounds `a` and `b` (`a` before `b`).
  static func predicates<T: NaNBoundEvent>(
    _: T.Type, _ a: Date, _ b: Date, _ u: Double, _ v: Double
  ) -> [(String, Predicate<T>)] {
    let nan = Self.nan
    let notANumber = Double.nan
    return [
      ("day >= a", #Predicate { $0.day >= a }),
      ("day <= a", #Predicate { $0.day <= a }),
      ("a <= day", #Predicate { a <= $0.day }),
      ("b >= day", #Predicate { b >= $0.day }),
      ("day >= a && day <= b", #Predicate { $0.day >= a && $0.day <= b }),
      ("day >= b && day <= a", #Predicate { $0.day >= b && $0.day <= a }),
      ("day > a && day <= b", #Predicate { $0.day > a && $0.day <= b }),
      ("day >= a && day < b", #Predicate { $0.day >= a && $0.day < b }),
      ("day > a", #Predicate { $0.day > a }),
      ("day < b", #Predicate { $0.day < b }),
      ("day >= nan", #Predicate { $0.day >= nan }),
      ("day <= nan", #Predicate { $0.day <= nan }),
      ("day > nan", #Predicate { $0.day > nan }),
      ("day < nan", #Predicate { $0.day < nan }),
      ("day >= nan && day <= a", #Predicate { $0.day >= nan && $0.day <= a }),
      ("day == nan", #Predicate { $0.day == nan }),
      ("spare >= a", #Predicate { $0.spare.flatMap { $0 >= a } ?? false }),
      ("spare <= b", #Predicate { $0.spare.flatMap { $0 <= b } ?? false }),
      ("spare >= nan", #Predicate { $0.spare.flatMap { $0 >= nan } ?? false }),
      ("x >= u", #Predicate { $0.x >= u }),
      ("x <= v", #Predicate { $0.x <= v }),
      ("x >= u && x <= v", #Predicate { $0.x >= u && $0.x <= v }),
      ("x >= nan", #Predicate { $0.x >= notANumber }),
      ("x <= nan", #Predicate { $0.x <= notANumber }),
      ("plain >= a", #Predicate { $0.plain >= a }),
      ("plainX >= u", #Predicate { $0.plainX >= u }),
    ]
  }

  /// A key's place in sort order: `nil`, then NaN, then values ascending.
  static func rank(_ value: Date?) -> [Double] {
    guard let value else { return [0] }
    let interval = value.timeIntervalSinceReferenceDate
    return interval.isNaN ? [1] : [2, interval]
  }

  /// Checks every predicate's fetch, count and sorted fetches against `Predicate.evaluate`.
  static func check<T: NaNBoundEvent>(_: T.Type, in context: ModelContext, _ label: String)
    throws
  {
    let all = try context.fetch(FetchDescriptor<T>())
    for (a, b, u, v) in [(day(7), day(21), 7.0, 21.0), (day(3), day(30), 3.0, 30.0)] {
      for (name, predicate) in predicates(T.self, a, b, u, v) {
        let want = try all.filter { try predicate.evaluate($0) }
        let wanted = Set(want.map(\.serial))
        let got = try context.fetch(FetchDescriptor<T>(predicate: predicate))
        #expect(Set(got.map(\.serial)) == wanted, "\(label) \(T.self) \(name) fetch")
        #expect(
          try context.fetchCount(FetchDescriptor<T>(predicate: predicate)) == want.count,
          "\(label) \(T.self) \(name) count")
        for ascending in [true, false] {
          for limit in [nil, 3] as [Int?] {
            var sorted = FetchDescriptor<T>(
              predicate: predicate,
              sortBy: [SortDescriptor(\.day, order: ascending ? .forward : .reverse)])
            sorted.fetchLimit = limit
            let rows = try context.fetch(sorted)
            let keys = want.map { rank($0.day) }.sorted {
              ascending ? $0.lexicographicallyPrecedes($1) : $1.lexicographicallyPrecedes($0)
            }
            #expect(
              rows.map { rank($0.day) } == Array(keys.prefix(limit ?? keys.count)),
              "\(label) \(T.self) \(name) sorted ascending \(ascending) limit \(String(describing: limit))"
            )
            #expect(Set(rows.map(\.serial)).isSubset(of: wanted), "\(label) \(T.self) \(name)")
          }
        }
      }
    }
  }

  @Test("fetches, counts and sorts through indexes agree with Predicate.evaluate")
  func agreeWithEvaluate() throws {
    let context = try Self.make()
    try Self.check(NaNBoundEvent.self, in: context, "saved")
    try Self.check(NaNBoundMeeting.self, in: context, "saved")
    // Unsaved changes: new NaN and dated rows, a NaN row given a date and the reverse.
    let events = try context.fetch(
      FetchDescriptor<NaNBoundEvent>(sortBy: [SortDescriptor(\.serial)]))
    events[0].day = Self.day(12)
    events[0].plain = Self.day(12)
    events[1].day = Self.nan
    events[1].plain = Self.nan
    for serial in 60..<70 {
      let event: NaNBoundEvent = serial % 2 == 0 ? NaNBoundEvent() : NaNBoundMeeting()
      Self.fill(event, serial)
      context.insert(event)
    }
    try Self.check(NaNBoundEvent.self, in: context, "unsaved")
    try Self.check(NaNBoundMeeting.self, in: context, "unsaved")
    try context.save()
    try Self.check(NaNBoundEvent.self, in: context, "saved again")
  }
}
