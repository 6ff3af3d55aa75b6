import Foundation
import ModelGraph
import Testing

/// Fetches of the same shape reuse the first one's plan with their own values, with or without
/// unsaved changes, and never after the tables, the schema or the columns it read changed.
@Suite("Query: the plan cache")
struct QueryPlanCacheTests {
  let fixture: QueryFixture
  var context: ModelContext { fixture.context }

  init() throws { fixture = try QueryFixture.make() }

  static let reused = "plan: reused from the cache"

  func names(_ trips: [QTrip]) -> [String] { trips.map(\.name) }

  func rangeDescriptor(from lo: Int, to hi: Int, limit: Int?) -> FetchDescriptor<QTrip> {
    let lo = QueryFixture.epoch + Double(lo) * QueryFixture.day
    let hi = QueryFixture.epoch + Double(hi) * QueryFixture.day
    var descriptor = FetchDescriptor<QTrip>(
      predicate: #Predicate { $0.start >= lo && $0.start < hi },
      sortBy: [SortDescriptor(\.start), SortDescriptor(\.name)])
    descriptor.fetchLimit = limit
    return descriptor
  }

  @Test("the same shape with other values finds the rows of those values")
  func sameShapeOtherValues() throws {
    let first = rangeDescriptor(from: 0, to: 30, limit: 12)
    _ = try context.fetch(first)
    var random = SplitMix64(seed: 3)
    for _ in 0..<40 {
      let lo = Int.random(in: -5...90, using: &random)
      let hi = lo + Int.random(in: 0...40, using: &random)
      let limit = 12
      let descriptor = rangeDescriptor(from: lo, to: hi, limit: limit)
      let low = QueryFixture.epoch + Double(lo) * QueryFixture.day
      let high = QueryFixture.epoch + Double(hi) * QueryFixture.day
      let expected = fixture.trips.filter { $0.start >= low && $0.start < high }
        .sorted(using: descriptor.sortBy).prefix(limit)
      #expect(names(try context.fetch(descriptor)) == names(Array(expected)), "\(lo)..<\(hi)")
      let plan = try context.explain(descriptor)
      #expect(plan.contains(Self.reused), "\(plan)")
      #expect(plan.contains("ordered(start) walk"), "\(plan)")
    }
  }

  @Test("each request's values choose between its index and a scan")
  func valuesChooseTheAccess() throws {
    func descriptor(_ least: Int) -> FetchDescriptor<QTrip> {
      FetchDescriptor(predicate: #Predicate { $0.nights >= least })
    }
    func expected(_ least: Int) -> Set<String> {
      Set(fixture.trips.filter { $0.nights >= least }.map(\.name))
    }
    // Every trip has 0 or more nights: the first plan scans.
    #expect(Set(names(try context.fetch(descriptor(0)))) == expected(0))
    let everything = try context.explain(descriptor(0))
    #expect(everything.contains(Self.reused) && everything.contains("scan ("), "\(everything)")
    // About a tenth have 9: the same shape reads the index with this value.
    #expect(Set(names(try context.fetch(descriptor(9)))) == expected(9))
    let few = try context.explain(descriptor(9))
    #expect(few.contains(Self.reused) && few.contains("ordered(nights) range"), "\(few)")
    #expect(!few.contains("scan"), "\(few)")
  }

  @Test("another context's save, then a refresh, sees the saved objects")
  func otherContextSaves() throws {
    let descriptor = rangeDescriptor(from: 0, to: 200, limit: nil)
    let before = try context.fetch(descriptor).count
    #expect(try context.explain(descriptor).contains(Self.reused))
    let other = ModelContext(context.container)
    var random = SplitMix64(seed: 99)
    let trip = QueryFixture.makeTrip(10_000, &random)
    trip.start = QueryFixture.epoch + 3 * QueryFixture.day
    other.insert(trip)
    try other.save()
    #expect(try context.fetch(descriptor).count == before + 1)
    #expect(try context.fetch(descriptor).contains { $0.name == trip.name })
  }

  @Test("a context with unsaved changes reuses plans, and they see its changes")
  func unsavedChanges() throws {
    let descriptor = rangeDescriptor(from: 0, to: 200, limit: nil)
    let before = try context.fetch(descriptor).count
    var random = SplitMix64(seed: 98)
    let trip = QueryFixture.makeTrip(20_000, &random)
    trip.start = QueryFixture.epoch + 4 * QueryFixture.day
    context.insert(trip)
    #expect(try context.fetch(descriptor).count == before + 1)
    #expect(try context.explain(descriptor).contains(Self.reused))
    context.rollback()
    #expect(try context.fetch(descriptor).count == before)
  }

  @Test("a rollback that replaces a sorted column: the reused plan sorts by the column read")
  func rollbackOfASortedAttribute() throws {
    var descriptor = FetchDescriptor<QTrip>(
      predicate: #Predicate { $0.nights >= 0 },
      sortBy: [SortDescriptor(\.budget, order: .reverse), SortDescriptor(\.name)])
    descriptor.fetchLimit = 3
    let before = names(try context.fetch(descriptor))
    let cheapest = try context.fetch(FetchDescriptor<QTrip>(sortBy: [SortDescriptor(\.budget)]))[0]
    cheapest.budget = 10_000
    #expect(names(try context.fetch(descriptor)).first == cheapest.name)
    context.rollback()
    #expect(names(try context.fetch(descriptor)) == before)
    try context.save()
    cheapest.budget = 20_000
    try context.save()
    #expect(names(try context.fetch(descriptor)).first == cheapest.name)
  }

  @Test("plans reused across unsaved inserts, updates, deletes, rollbacks and saves")
  func differentialWithPendingChanges() throws {
    var random = SplitMix64(seed: 2026)
    var saved = try context.fetchCount(FetchDescriptor<QTrip>())
    var live = saved
    var reusedWithChanges = 0
    var next = 50_000
    for step in 0..<120 {
      let trips = try context.fetch(FetchDescriptor<QTrip>())
      #expect(trips.count == live, "step \(step)")
      switch Int.random(in: 0..<10, using: &random) {
      case 0...2:
        let trip = QueryFixture.makeTrip(next, &random)
        next += 1
        context.insert(trip)
        live += 1
      case 3...5:
        let trip = trips.randomElement(using: &random)!
        trip.start =
          QueryFixture.epoch + Double(Int.random(in: 0..<120, using: &random)) * QueryFixture.day
        trip.budget = Double(Int.random(in: 0..<1_000, using: &random))
        trip.kind = QKind.allCases.randomElement(using: &random)!
      case 6, 7:
        context.delete(trips.randomElement(using: &random)!)
        live -= 1
      case 8:
        context.rollback()
        live = saved
      default:
        try context.save()
        saved = live
      }
      let all = try context.fetch(FetchDescriptor<QTrip>())
      let lo = Int.random(in: 0..<100, using: &random)
      let range = rangeDescriptor(
        from: lo, to: lo + Int.random(in: 1...30, using: &random), limit: 12)
      let expectedRange = try all.filter { try range.predicate!.evaluate($0) }
        .sorted(using: range.sortBy).prefix(12)
      #expect(names(try context.fetch(range)) == names(Array(expectedRange)), "range, step \(step)")
      let least = Int.random(in: 0..<10, using: &random)
      var byBudget = FetchDescriptor<QTrip>(
        predicate: #Predicate { $0.nights >= least },
        sortBy: [SortDescriptor(\.budget, order: .reverse), SortDescriptor(\.name)])
      byBudget.fetchLimit = 7
      let expectedBudget = all.filter { $0.nights >= least }.sorted(using: byBudget.sortBy).prefix(
        7)
      #expect(
        names(try context.fetch(byBudget)) == names(Array(expectedBudget)), "budget, step \(step)")
      let kind = QKind.allCases.randomElement(using: &random)!
      let byKind = FetchDescriptor<QTrip>(predicate: #Predicate { $0.kind == kind })
      #expect(
        Set(names(try context.fetch(byKind))) == Set(names(all.filter { $0.kind == kind })),
        "kind, step \(step)")
      if context.hasChanges, try context.explain(byBudget).contains(Self.reused) {
        reusedWithChanges += 1
      }
    }
    #expect(reusedWithChanges > 20)
  }

  @Test("a captured optional that is nil in one fetch and a value in the next: each right")
  func nilAndValueCaptures() throws {
    let codes = Set(fixture.trips.compactMap(\.code))
    let wanted: [String?] = [nil, codes.min(), nil, codes.max(), "no such code", nil]
    for code in wanted {
      for _ in 0..<2 {
        let descriptor = FetchDescriptor<QTrip>(
          predicate: #Predicate { $0.code == code && $0.nights >= 0 },
          sortBy: [SortDescriptor(\.name)])
        let expected = fixture.trips.filter { $0.code == code && $0.nights >= 0 }
          .sorted(using: descriptor.sortBy)
        #expect(
          names(try context.fetch(descriptor)) == names(expected), "\(String(describing: code))")
      }
    }
    let rating: Double? = nil
    let unrated = FetchDescriptor<QTrip>(predicate: #Predicate { $0.rating == rating })
    #expect(
      Set(names(try context.fetch(unrated)))
        == Set(names(fixture.trips.filter { $0.rating == nil })))
  }

  @Test("a captured Bool that changes between fetches of one shape: each right")
  func booleanCaptures() throws {
    for flag in [true, false, true, false] {
      let descriptor = FetchDescriptor<QTrip>(
        predicate: #Predicate { ($0.nights > 4) == flag }, sortBy: [SortDescriptor(\.name)])
      let expected = fixture.trips.filter { ($0.nights > 4) == flag }
        .sorted(using: descriptor.sortBy)
      #expect(names(try context.fetch(descriptor)) == names(expected), "\(flag)")
    }
  }

  @Test("plans kept across a save find the new version's indexes and see its rows")
  func acrossSaves() throws {
    var random = SplitMix64(seed: 11)
    var trips = fixture.trips
    for round in 0..<4 {
      let descriptor = rangeDescriptor(from: 10 * round, to: 10 * round + 30, limit: 7)
      let low = QueryFixture.epoch + Double(10 * round) * QueryFixture.day
      let high = QueryFixture.epoch + Double(10 * round + 30) * QueryFixture.day
      let expected = trips.filter { $0.start >= low && $0.start < high }
        .sorted(using: descriptor.sortBy).prefix(7)
      #expect(names(try context.fetch(descriptor)) == names(Array(expected)), "\(round)")
      #expect(names(try context.fetch(descriptor)) == names(Array(expected)), "\(round) again")
      let trip = QueryFixture.makeTrip(1_000 + round, &random)
      trip.start = low
      context.insert(trip)
      trips.append(trip)
      try context.save()
    }
  }

  @Test("a schema change drops the cached plans")
  func schemaChange() throws {
    let descriptor = rangeDescriptor(from: 0, to: 200, limit: 5)
    _ = try context.fetch(descriptor)
    #expect(try context.explain(descriptor).contains(Self.reused))
    // Fetching a class the container did not know registers it: a new catalog.
    _ = try context.fetch(FetchDescriptor<QCacheLate>())
    #expect(!(try context.explain(descriptor)).contains(Self.reused))
  }
}

/// A class registered only when first fetched, to change the schema mid-test.
final class QCacheLate: PersistentModel {
  @Attribute var label: String
}

/// Windows at the edges of `Int` on indexed queries, where the planner weighs the window.
@Suite("Query: huge windows on indexed plans")
struct QueryHugeWindowTests {
  @Test("offsets and limits up to Int.max plan and run without overflowing")
  func hugeWindows() throws {
    let fixture = try QueryFixture.make()
    let lo = QueryFixture.epoch + 10 * QueryFixture.day
    let nights = 9
    let predicates = [
      #Predicate<QTrip> { $0.start >= lo }, #Predicate<QTrip> { $0.nights >= nights },
      #Predicate<QTrip> { _ in true },
    ]
    for predicate in predicates {
      let all = try fixture.trips.filter { try predicate.evaluate($0) }.count
      for (offset, limit) in [(Int.max, 10), (0, Int.max), (3, Int.max), (Int.max, Int.max)] {
        for sort in [[SortDescriptor(\QTrip.start)], [SortDescriptor(\QTrip.nights)], []] {
          var descriptor = FetchDescriptor(predicate: predicate, sortBy: sort)
          descriptor.fetchOffset = offset
          descriptor.fetchLimit = limit
          let expected = max(0, min(all - min(offset, all), limit))
          #expect(try fixture.context.fetch(descriptor).count == expected)
          #expect(try fixture.context.fetchCount(descriptor) == expected)
        }
      }
    }
  }
}
