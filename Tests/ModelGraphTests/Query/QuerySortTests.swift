import Foundation
import ModelGraph
import Testing

/// A sort order, for parameterized tests.
struct SortCase: Sendable, CustomTestStringConvertible {
  let name: String
  let sort: [SortDescriptor<QTrip>]
  var testDescription: String { name }

  static let all: [SortCase] = [
    SortCase(name: "start (ordered index)", sort: [SortDescriptor(\.start)]),
    SortCase(name: "start descending", sort: [SortDescriptor(\.start, order: .reverse)]),
    SortCase(name: "nights (index, many ties)", sort: [SortDescriptor(\.nights)]),
    SortCase(name: "nights descending", sort: [SortDescriptor(\.nights, order: .reverse)]),
    SortCase(name: "budget (no index)", sort: [SortDescriptor(\.budget)]),
    SortCase(name: "name (String, no index)", sort: [SortDescriptor(\.name)]),
    SortCase(name: "name descending", sort: [SortDescriptor(\.name, order: .reverse)]),
    SortCase(name: "rating (optional, nil first)", sort: [SortDescriptor(\.rating)]),
    SortCase(
      name: "rating descending (nil last)", sort: [SortDescriptor(\.rating, order: .reverse)]),
    SortCase(name: "code (optional, ordered index)", sort: [SortDescriptor(\.code)]),
    SortCase(name: "code descending", sort: [SortDescriptor(\.code, order: .reverse)]),
    SortCase(name: "small (Int16)", sort: [SortDescriptor(\.small)]),
    SortCase(
      name: "nights then name", sort: [SortDescriptor(\.nights), SortDescriptor(\.name)]),
    SortCase(
      name: "nights descending then budget",
      sort: [SortDescriptor(\.nights, order: .reverse), SortDescriptor(\.budget)]),
    SortCase(
      name: "code then start descending",
      sort: [SortDescriptor(\.code), SortDescriptor(\.start, order: .reverse)]),
    SortCase(
      name: "lexical comparator (Foundation sorts)",
      sort: [SortDescriptor(\.name, comparator: .lexical)]),
  ]
}

/// A window of results, for parameterized tests.
struct WindowCase: Sendable, CustomTestStringConvertible {
  let offset: Int?
  let limit: Int?
  var testDescription: String {
    "offset \(offset.map(String.init) ?? "-") limit \(limit.map(String.init) ?? "-")"
  }

  static let all: [WindowCase] = [
    WindowCase(offset: nil, limit: nil), WindowCase(offset: nil, limit: 0),
    WindowCase(offset: nil, limit: 1), WindowCase(offset: nil, limit: 7),
    WindowCase(offset: 3, limit: 10), WindowCase(offset: 50, limit: nil),
    WindowCase(offset: 230, limit: 20), WindowCase(offset: 1_000, limit: 5),
  ]
}

@Suite("Query: sorts, limits and offsets against Foundation's sorted(using:)")
struct QuerySortTests {
  @Test("every sort and window over the whole hierarchy", arguments: SortCase.all, WindowCase.all)
  func sortAndWindow(_ sort: SortCase, _ window: WindowCase) throws {
    let fixture = try QueryFixture.make()
    try expectSorted(fixture.context, sort, window, predicate: nil)
  }

  @Test("sorts combined with conditions an index answers", arguments: SortCase.all)
  func sortWithConditions(_ sort: SortCase) throws {
    let fixture = try QueryFixture.make()
    let lo = QueryFixture.epoch + 20 * QueryFixture.day
    let hi = QueryFixture.epoch + 70 * QueryFixture.day
    let three = 3
    let beach = QKind.beach
    let predicates: [Predicate<QTrip>] = [
      #Predicate { $0.start >= lo && $0.start < hi },
      #Predicate { $0.nights == three },
      #Predicate { $0.kind == beach && $0.budget > 300 },
      #Predicate { $0 is QBusiness },
    ]
    for predicate in predicates {
      for window in [WindowCase(offset: nil, limit: 5), WindowCase(offset: 4, limit: 12)] {
        try expectSorted(fixture.context, sort, window, predicate: predicate)
      }
    }
  }

  @Test(
    "shallow, exact and subclass roots",
    arguments: [SortCase.all[0], SortCase.all[3], SortCase.all[5]])
  func roots(_ sort: SortCase) throws {
    let fixture = try QueryFixture.make()
    for window in [WindowCase(offset: nil, limit: nil), WindowCase(offset: 2, limit: 9)] {
      try expectSorted(fixture.context, sort, window, predicate: nil, includesSubclasses: false)
      var deep = FetchDescriptor<QBusiness>(sortBy: sort.sort.map(Self.business))
      deep.fetchOffset = window.offset
      deep.fetchLimit = window.limit
      let all = try fixture.context.fetch(FetchDescriptor<QBusiness>())
      let expected = Self.window(all.sorted(using: deep.sortBy), window)
      #expect(names(try fixture.context.fetch(deep)) == names(expected))
    }
  }

  @Test("with unsaved inserts, changes and deletes", arguments: SortCase.all)
  func pending(_ sort: SortCase) throws {
    let fixture = try QueryFixture.make(count: 200, seed: 3)
    var random = SplitMix64(seed: 5)
    for index in 0..<30 { fixture.context.insert(QueryFixture.makeTrip(2_000 + index, &random)) }
    for trip in fixture.trips.prefix(40) {
      trip.start = trip.start + 9 * QueryFixture.day
      trip.nights = (trip.nights + 1) % 10
      trip.code = trip.code == nil ? "C7" : nil
    }
    for trip in fixture.trips.dropFirst(40).prefix(25) { fixture.context.delete(trip) }
    for window in [WindowCase(offset: nil, limit: nil), WindowCase(offset: 5, limit: 15)] {
      try expectSorted(fixture.context, sort, window, predicate: nil)
    }
  }

  /// The same sort of a `QBusiness` descriptor.
  static func business(_ sort: SortDescriptor<QTrip>) -> SortDescriptor<QBusiness> {
    switch sort.keyPath {
    case \QTrip.start: SortDescriptor(\QBusiness.start, order: sort.order)
    case \QTrip.nights: SortDescriptor(\QBusiness.nights, order: sort.order)
    default: SortDescriptor(\QBusiness.name, order: sort.order)
    }
  }

  static func window<T>(_ sorted: [T], _ window: WindowCase) -> [T] {
    let start = min(window.offset ?? 0, sorted.count)
    let end = window.limit.map { min(sorted.count, start + $0) } ?? sorted.count
    return Array(sorted[start..<end])
  }

  private func expectSorted(
    _ context: ModelContext, _ sort: SortCase, _ window: WindowCase,
    predicate: Predicate<QTrip>?, includesSubclasses: Bool = true
  ) throws {
    var unsorted = FetchDescriptor<QTrip>()
    unsorted.includesSubclasses = includesSubclasses
    let all = try context.fetch(unsorted)
    let matching =
      try predicate.map { predicate in try all.filter { try predicate.evaluate($0) } }
      ?? all
    let expected = Self.window(matching.sorted(using: sort.sort), window)
    var descriptor = FetchDescriptor(predicate: predicate, sortBy: sort.sort)
    descriptor.includesSubclasses = includesSubclasses
    descriptor.fetchOffset = window.offset
    descriptor.fetchLimit = window.limit
    let found = try context.fetch(descriptor)
    #expect(names(found) == names(expected), "\(sort.name) \(window.testDescription)")
    #expect(try context.fetchIdentifiers(descriptor) == expected.map(\.persistentModelID))
    #expect(try context.fetchCount(descriptor) == expected.count)
  }
}
