import Foundation
import Testing

@testable import ModelGraph

/// A fetch of a shape planned before runs the cached plan with its own values written into
/// it (index bounds and row tests read them), without planning: it finds the rows of its own
/// values, and never runs a plan made for tables, indexes or versions it does not read.
@Suite("Query: bound plans")
struct BoundPlanTests {
  let fixture: QueryFixture
  var context: ModelContext { fixture.context }
  var boundHits: Int { context.session.planCache.boundHits }

  init() throws { fixture = try QueryFixture.make() }

  static let reused = "plan: reused from the cache"

  func day(_ number: Int) -> Date { QueryFixture.epoch + Double(number) * QueryFixture.day }

  func walk(_ lo: Int, _ hi: Int, limit: Int?) -> FetchDescriptor<QTrip> {
    let lo = day(lo)
    let hi = day(hi)
    var descriptor = FetchDescriptor<QTrip>(
      predicate: #Predicate { $0.start >= lo && $0.start < hi },
      sortBy: [SortDescriptor(\.start)])
    descriptor.fetchLimit = limit
    return descriptor
  }

  /// The names `descriptor` fetches, and those filtering and sorting every trip finds.
  func check(_ descriptor: FetchDescriptor<QTrip>, _ label: String) throws {
    let all = try context.fetch(FetchDescriptor<QTrip>())
    var expected = try all.filter { try descriptor.predicate?.evaluate($0) ?? true }
    if !descriptor.sortBy.isEmpty { expected.sort(using: descriptor.sortBy) }
    let fetched = try context.fetch(descriptor)
    if descriptor.sortBy.isEmpty {
      #expect(Set(names(fetched)) == Set(names(expected)), "\(label)")
      #expect(fetched.count == expected.count, "\(label)")
    } else {
      let window = Array(expected.prefix(descriptor.fetchLimit ?? Int.max))
      // Ties on the sort key may come in any order: compare the keys, then the names as sets.
      #expect(fetched.map(\.start) == window.map(\.start), "\(label)")
      #expect(
        Set(names(fetched)) == Set(names(window)) || fetched.count == window.count, "\(label)")
    }
  }

  @Test("index walks with other bounds, empty and inverted ranges, run bound")
  func walksWithOtherBounds() throws {
    try check(walk(0, 30, limit: 10), "first")
    let before = boundHits
    var random = SplitMix64(seed: 41)
    for round in 0..<40 {
      let lo = Int.random(in: -10...130, using: &random)
      let hi = lo + Int.random(in: -5...40, using: &random)
      try check(walk(lo, hi, limit: [nil, 1, 10, 500].randomElement(using: &random)!), "\(round)")
    }
    try check(walk(50, 50, limit: 10), "empty")
    try check(walk(200, 300, limit: 10), "past the end")
    #expect(boundHits > before + 30)
  }

  @Test("hash and list lookups with other values, including an empty list, run bound")
  func equalityWithOtherValues() throws {
    let beforeCompanies = boundHits
    for company in QueryFixture.companies + ["nobody", ""] {
      try check(
        FetchDescriptor<QTrip>(
          predicate: #Predicate { ($0 as? QBusiness)?.company == company }), company)
      let business = FetchDescriptor<QBusiness>(predicate: #Predicate { $0.company == company })
      let all = try context.fetch(FetchDescriptor<QBusiness>())
      #expect(
        Set(try context.fetch(business).map(\.name))
          == Set(all.filter { $0.company == company }.map(\.name)), "\(company)")
    }
    // Each shape's first fetch plans; the others run bound (one hash lookup each).
    #expect(boundHits >= beforeCompanies + QueryFixture.companies.count)
    let before = boundHits
    for kinds in [[QKind.city], [.beach, .mountain], [], QKind.allCases] {
      let raw = kinds
      try check(FetchDescriptor<QTrip>(predicate: #Predicate { raw.contains($0.kind) }), "\(kinds)")
    }
    for kind in QKind.allCases + QKind.allCases {
      try check(FetchDescriptor<QTrip>(predicate: #Predicate { $0.kind == kind }), "\(kind)")
    }
    #expect(boundHits > before + 4)
  }

  @Test("a row test that reads a value, beside an index walk, tests each fetch's value")
  func rowTestsReadTheirValues() throws {
    for nights in [0, 9, 3, 10, -1, 5] {
      let lo = day(10)
      let hi = day(80)
      var descriptor = FetchDescriptor<QTrip>(
        predicate: #Predicate { $0.start >= lo && $0.start < hi && $0.nights >= nights },
        sortBy: [SortDescriptor(\.start)])
      descriptor.fetchLimit = 15
      try check(descriptor, "nights \(nights)")
      let budget = Double(nights * 100)
      let city = QKind.city
      try check(
        FetchDescriptor<QTrip>(predicate: #Predicate { $0.kind == city && $0.budget < budget }),
        "budget \(budget)")
    }
  }

  @Test("values that flip between nil and a value, and Booleans, each get their own plan")
  func nilAndBooleanValues() throws {
    let codes = Set(fixture.trips.compactMap(\.code)).sorted()
    for code in [nil, codes.first, nil, codes.last, "none", nil, codes.first] as [String?] {
      let lo = day(0)
      try check(
        FetchDescriptor<QTrip>(
          predicate: #Predicate { $0.code == code && $0.start >= lo },
          sortBy: [SortDescriptor(\.start)]), "\(String(describing: code))")
    }
    for flag in [true, false, false, true] {
      let least = 5
      try check(
        FetchDescriptor<QTrip>(predicate: #Predicate { ($0.nights >= least) == flag }), "\(flag)")
    }
  }

  @Test("a save between two fetches of one shape: the second sees the new rows")
  func saveBetweenFetches() throws {
    let descriptor = walk(20, 25, limit: nil)
    try check(descriptor, "before")
    try check(descriptor, "bound")
    var random = SplitMix64(seed: 5)
    let trip = QueryFixture.makeTrip(7_000, &random)
    trip.start = day(21)
    context.insert(trip)
    try context.save()
    let fetched = try context.fetch(descriptor)
    #expect(fetched.contains { $0.name == trip.name })
    try check(descriptor, "after")
    let before = boundHits
    try check(walk(20, 26, limit: nil), "bound after the save")
    #expect(boundHits > before)
    let name = trip.name
    context.delete(trip)
    try context.save()
    #expect(!(try context.fetch(descriptor)).contains { $0.name == name })
  }

  @Test("another context's save is seen after the refresh a fetch makes")
  func otherContextSaves() throws {
    let descriptor = walk(0, 200, limit: nil)
    let count = try context.fetch(descriptor).count
    _ = try context.fetch(descriptor)
    let other = ModelContext(context.container)
    var random = SplitMix64(seed: 6)
    let trip = QueryFixture.makeTrip(8_000, &random)
    trip.start = day(1)
    other.insert(trip)
    try other.save()
    #expect(try context.fetch(descriptor).count == count + 1)
  }

  @Test("unsaved changes, and fetches that leave them out, never run a plan bound without them")
  func unsavedChanges() throws {
    let descriptor = walk(0, 200, limit: nil)
    let saved = try context.fetch(descriptor).count
    _ = try context.fetch(descriptor)
    var random = SplitMix64(seed: 8)
    let trip = QueryFixture.makeTrip(9_000, &random)
    trip.start = day(2)
    context.insert(trip)
    #expect(try context.fetch(descriptor).count == saved + 1)
    var committed = descriptor
    committed.includePendingChanges = false
    #expect(try context.fetch(committed).count == saved)
    #expect(try context.fetch(committed).count == saved)
    context.rollback()
    #expect(try context.fetch(descriptor).count == saved)
    #expect(try context.fetch(committed).count == saved)
  }

  @Test("explain still says the plan came from the cache")
  func explainSaysCached() throws {
    _ = try context.fetch(walk(0, 10, limit: 5))
    _ = try context.fetch(walk(3, 12, limit: 5))
    let text = try context.explain(walk(4, 14, limit: 5))
    #expect(text.contains(Self.reused), "\(text)")
    #expect(text.contains("ordered(start) walk"), "\(text)")
  }

  @Test("a schema change stops the bound plan")
  func schemaChange() throws {
    let descriptor = walk(0, 200, limit: 5)
    _ = try context.fetch(descriptor)
    _ = try context.fetch(descriptor)
    _ = try context.fetch(FetchDescriptor<QBoundLate>())
    #expect(!(try context.explain(descriptor)).contains(Self.reused))
    try check(descriptor, "after the schema change")
  }
}

/// A class registered only when first fetched, to change the schema mid-test.
final class QBoundLate: PersistentModel {
  @Attribute var label: String
}
