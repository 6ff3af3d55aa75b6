import Foundation
import ModelGraphCore
import Testing

@testable import ModelGraph

/// A descriptor like one fetched before (same class, tree type, key paths, sort, window and
/// flags) runs its bound plan from the context's fetch memo with its own values, and one that
/// differs in any of those never runs another's plan: every fetch gives the rows filtering
/// and sorting every object gives.
@Suite("Query: fetch memo")
struct FetchMemoTests {
  let fixture: QueryFixture
  var context: ModelContext { fixture.context }
  var memoHits: Int { context.fetchMemo.hits }

  init() throws { fixture = try QueryFixture.make() }

  func day(_ number: Int) -> Date { QueryFixture.epoch + Double(number) * QueryFixture.day }

  func walk(
    _ lo: Int, _ hi: Int, limit: Int?, offset: Int? = nil,
    sort: [SortDescriptor<QTrip>] = [SortDescriptor(\.start)]
  ) -> FetchDescriptor<QTrip> {
    let lo = day(lo)
    let hi = day(hi)
    var descriptor = FetchDescriptor<QTrip>(
      predicate: #Predicate { $0.start >= lo && $0.start < hi }, sortBy: sort)
    descriptor.fetchLimit = limit
    descriptor.fetchOffset = offset
    return descriptor
  }

  /// The objects `descriptor` fetches, against filtering and sorting every object it may
  /// select (of `T` alone when shallow; saved ones alone without pending changes).
  func check<T: PersistentModel>(
    _ descriptor: FetchDescriptor<T>, _ label: String, sortKey: (T) -> String
  ) throws {
    var every = FetchDescriptor<T>()
    every.includesSubclasses = descriptor.includesSubclasses
    every.includePendingChanges = descriptor.includePendingChanges
    let all = try context.fetch(every)
    var expected = try all.filter { try descriptor.predicate?.evaluate($0) ?? true }
    if !descriptor.sortBy.isEmpty { expected.sort(using: descriptor.sortBy) }
    let start = min(descriptor.fetchOffset ?? 0, expected.count)
    let end = min(start + (descriptor.fetchLimit ?? expected.count), expected.count)
    let window = Array(expected[start..<end])
    let fetched = try context.fetch(descriptor)
    #expect(fetched.map(sortKey) == window.map(sortKey), "\(label)")
    if descriptor.fetchLimit == nil && descriptor.fetchOffset == nil {
      #expect(
        Set(fetched.map(\.persistentModelID)) == Set(window.map(\.persistentModelID)),
        "\(label)")
    }
  }

  func checkTrips(_ descriptor: FetchDescriptor<QTrip>, _ label: String) throws {
    try check(descriptor, label) { "\($0.start.timeIntervalSince1970)" }
  }

  @Test("a repeated descriptor runs from the memo with each fetch's values")
  func repeatedDescriptor() throws {
    try checkTrips(walk(0, 30, limit: 10), "first")
    let before = memoHits
    var random = SplitMix64(seed: 43)
    for round in 0..<40 {
      let lo = Int.random(in: -10...130, using: &random)
      let hi = lo + Int.random(in: -5...40, using: &random)
      try checkTrips(walk(lo, hi, limit: 10), "\(round)")
    }
    #expect(memoHits >= before + 38)
    #expect(context.fetchMemo.count >= 1)
  }

  @Test("sorts, windows and flags that differ are not taken for one another")
  func differentDescriptors() throws {
    let variants: [(String, FetchDescriptor<QTrip>)] = [
      ("limit 10", walk(0, 90, limit: 10)),
      ("limit 3", walk(0, 90, limit: 3)),
      ("no limit", walk(0, 90, limit: nil)),
      ("offset 4", walk(0, 90, limit: 10, offset: 4)),
      ("reverse", walk(0, 90, limit: 10, sort: [SortDescriptor(\.start, order: .reverse)])),
      ("by budget", walk(0, 90, limit: 10, sort: [SortDescriptor(\.budget)])),
      ("by name", walk(0, 90, limit: 10, sort: [SortDescriptor(\.name)])),
      (
        "by name, lexical",
        walk(0, 90, limit: 10, sort: [SortDescriptor(\.name, comparator: .lexical)])
      ),
      (
        "two keys",
        walk(0, 90, limit: 10, sort: [SortDescriptor(\.nights), SortDescriptor(\.start)])
      ),
      (
        "two keys, swapped",
        walk(0, 90, limit: 10, sort: [SortDescriptor(\.start), SortDescriptor(\.nights)])
      ),
    ]
    let key: (QTrip) -> String = { "\($0.start.timeIntervalSince1970) \($0.budget) \($0.name)" }
    for round in 0..<3 {
      for (label, descriptor) in variants {
        try check(descriptor, "\(label) \(round)", sortKey: key)
        var shallow = descriptor
        shallow.includesSubclasses = false
        try check(shallow, "\(label), shallow \(round)", sortKey: key)
      }
    }
    #expect(memoHits > 0)
  }

  @Test("every class of a memoized walk reads the bounds of its own fetch")
  func everyClassReadsItsBounds() throws {
    var random = SplitMix64(seed: 57)
    for round in 0..<30 {
      let lo = Int.random(in: -10...120, using: &random)
      let hi = lo + Int.random(in: 0...30, using: &random)
      try checkTrips(walk(lo, hi, limit: nil), "\(round)")
      var shallow = walk(lo, hi, limit: nil)
      shallow.includesSubclasses = false
      try checkTrips(shallow, "shallow \(round)")
    }
    #expect(memoHits > 40)
  }

  @Test("sorts that differ after their first key, or by a string comparator, miss the memo")
  func laterSortKeysAndComparators() throws {
    let key: (QTrip) -> String = {
      "\($0.nights) \($0.start.timeIntervalSince1970) \($0.budget) \($0.name)"
    }
    let sorts: [(String, [SortDescriptor<QTrip>])] = [
      ("nights, start", [SortDescriptor(\.nights), SortDescriptor(\.start)]),
      (
        "nights, start reversed",
        [SortDescriptor(\.nights), SortDescriptor(\.start, order: .reverse)]
      ),
      ("nights, budget", [SortDescriptor(\.nights), SortDescriptor(\.budget)]),
      (
        "nights, start, budget",
        [SortDescriptor(\.nights), SortDescriptor(\.start), SortDescriptor(\.budget)]
      ),
    ]
    for round in 0..<3 {
      for (label, sort) in sorts {
        try check(walk(0, 90, limit: 10, sort: sort), "\(label) \(round)", sortKey: key)
      }
    }
    let byName = walk(0, 90, limit: 10, sort: [SortDescriptor(\.name)])
    // Planned, then bound and memoized.
    for _ in 0..<2 { _ = try context.fetch(byName) }
    var hits = memoHits
    _ = try context.fetch(byName)
    #expect(memoHits == hits + 1, "a repeated sort by name runs from the memo")
    for order in [SortOrder.forward, .reverse] {
      hits = memoHits
      _ = try context.fetch(
        walk(0, 90, limit: 10, sort: [SortDescriptor(\.name, comparator: .lexical, order: order)]))
      #expect(memoHits == hits, "a string comparator is not the memoized sort by name")
    }
  }

  @Test("trees of one type that read other key paths are not taken for one another")
  func otherKeyPaths() throws {
    for round in 0..<4 {
      for least in [0, 2, 5] {
        let nights = FetchDescriptor<QConference>(
          predicate: #Predicate { $0.nights >= least && $0.nights < least + 4 },
          sortBy: [SortDescriptor(\.start)])
        let talks = FetchDescriptor<QConference>(
          predicate: #Predicate { $0.talks >= least && $0.talks < least + 4 },
          sortBy: [SortDescriptor(\.start)])
        try check(nights, "nights \(least) \(round)") { "\($0.start.timeIntervalSince1970)" }
        try check(talks, "talks \(least) \(round)") { "\($0.start.timeIntervalSince1970)" }
      }
    }
    #expect(memoHits > 0)
  }

  @Test("unsaved changes, saves and a schema change after memoized fetches")
  func changesAfterMemoizedFetches() throws {
    let descriptor = walk(0, 200, limit: nil)
    try checkTrips(descriptor, "first")
    try checkTrips(descriptor, "second")
    try checkTrips(descriptor, "memoized")
    var random = SplitMix64(seed: 9)
    let trip = QueryFixture.makeTrip(9_500, &random)
    trip.start = day(3)
    context.insert(trip)
    try checkTrips(descriptor, "unsaved insert")
    var committed = descriptor
    committed.includePendingChanges = false
    try checkTrips(committed, "committed only")
    try context.save()
    try checkTrips(descriptor, "saved")
    try checkTrips(descriptor, "saved, memoized")
    _ = try context.fetch(FetchDescriptor<QBoundLate>())
    try checkTrips(descriptor, "after the schema change")
    try checkTrips(descriptor, "after the schema change, again")
  }

  @Test("a repeated fetch checks its plan's tables once per version the context reads")
  func checksOncePerVersion() throws {
    let cache = context.session.planCache
    for round in 0..<2 { try checkTrips(walk(round, 30, limit: 10), "warm \(round)") }
    let checked = cache.tableChecks
    for round in 0..<5 {
      try checkTrips(walk(round, 40 + 7 * round, limit: 10), "repeated \(round)")
    }
    #expect(cache.tableChecks == checked, "no version or declaration changed")
    var random = SplitMix64(seed: 21)
    let trip = QueryFixture.makeTrip(9_700, &random)
    trip.start = day(2)
    context.insert(trip)
    try context.save()
    for round in 0..<3 { try checkTrips(walk(0, 40 + round, limit: 10), "saved \(round)") }
    #expect(cache.tableChecks > checked, "a save moves the context to another version")
  }

  @Test("memoized fetches after a rollback and after another context's save")
  func rollbackAndForeignSave() throws {
    for round in 0..<3 { try checkTrips(walk(round, 60, limit: 10), "warm \(round)") }
    let moved = try context.fetch(walk(0, 60, limit: 5))
    for trip in moved { trip.start = day(500) }
    var random = SplitMix64(seed: 31)
    let unsaved = QueryFixture.makeTrip(9_800, &random)
    unsaved.start = day(1)
    context.insert(unsaved)
    try checkTrips(walk(0, 60, limit: 10), "unsaved changes")
    context.rollback()
    for round in 0..<3 { try checkTrips(walk(0, 60 + round, limit: 10), "rolled back \(round)") }
    let other = ModelContext(context.container)
    let foreign = QueryFixture.makeTrip(9_900, &random)
    foreign.start = day(-1)
    other.insert(foreign)
    try other.save()
    for round in 0..<3 {
      try checkTrips(walk(-5, 60 + round, limit: 10), "another context saved \(round)")
    }
    let first = try context.fetch(walk(-5, 60, limit: 3)).map(\.start)
    #expect(first.first == day(-1), "the other context's trip is seen")
  }

  @Test("a repeated fetch refills the plan the last one ran; a plan still held is left alone")
  func refillsItsPlan() throws {
    for round in 0..<3 { try checkTrips(walk(round, 30, limit: 10), "warm \(round)") }
    weak var last: QueryPlan?
    do {
      let prepared = try context.prepareFetch(walk(5, 40, limit: 10))
      last = prepared.plan
    }
    #expect(last != nil, "the memo's bound plan keeps the plan for the next run")
    let next = try context.prepareFetch(walk(7, 60, limit: 10))
    #expect(next.plan === last)
    let held = next.plan
    let heldKeys = try held.keys()
    let other = try context.prepareFetch(walk(40, 90, limit: 10))
    #expect(other.plan !== held)
    #expect(try held.keys() == heldKeys)
    #expect(try other.plan.keys() != heldKeys)
    try checkTrips(walk(40, 90, limit: 10), "after")
  }
}
