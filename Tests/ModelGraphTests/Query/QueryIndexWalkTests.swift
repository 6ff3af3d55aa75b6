import Foundation
import ModelGraph
import Testing

/// Sorted, limited fetches answered by walking ordered indexes (one sort key, as W2's), and
/// repeated shapes bound to a cached plan, checked against filtering the objects in memory.
@Suite("Query: index walks with one sort key, against array filtering")
struct QueryIndexWalkTests {
  let fixture: QueryFixture
  var context: ModelContext { fixture.context }

  init() throws { fixture = try QueryFixture.make(count: 600, seed: 11) }

  func date(_ day: Int) -> Date { QueryFixture.epoch + Double(day) * QueryFixture.day }

  /// `lo <= start < hi && nights > nights`, sorted by `start` only.
  func descriptor(_ lo: Int, _ hi: Int, nights: Int, limit: Int, ascending: Bool)
    -> FetchDescriptor<QTrip>
  {
    let (low, high) = (date(lo), date(hi))
    var descriptor = FetchDescriptor<QTrip>(
      predicate: #Predicate { $0.start >= low && $0.start < high && $0.nights > nights },
      sortBy: [SortDescriptor(\.start, order: ascending ? .forward : .reverse)])
    descriptor.fetchLimit = limit
    return descriptor
  }

  /// The start dates the fetch must return, in order (trips tied on `start` may come in any
  /// order, so the rows are compared by their keys and checked one by one).
  func expectMatches(
    _ fetched: [QTrip], among trips: [QTrip], _ lo: Int, _ hi: Int, nights: Int, limit: Int,
    ascending: Bool
  ) {
    let (low, high) = (date(lo), date(hi))
    let matching = trips.filter { $0.start >= low && $0.start < high && $0.nights > nights }
    let starts = matching.map(\.start).sorted(by: ascending ? (<) : (>)).prefix(limit)
    #expect(fetched.map(\.start) == Array(starts), "\(lo)..<\(hi) nights > \(nights)")
    let chosen = Set(matching.map(ObjectIdentifier.init))
    #expect(fetched.allSatisfy { chosen.contains(ObjectIdentifier($0)) })
    #expect(Set(fetched.map(ObjectIdentifier.init)).count == fetched.count)
  }

  @Test("random windows, limits and directions return the rows array filtering finds")
  func randomWindows() throws {
    var random = SplitMix64(seed: 5)
    for round in 0..<60 {
      let lo = Int.random(in: -5...120, using: &random)
      let hi = lo + Int.random(in: 0...60, using: &random)
      let nights = Int.random(in: -1...6, using: &random)
      let limit = [0, 1, 7, 50, 2_000][round % 5]
      let ascending = round % 2 == 0
      let fetched = try context.fetch(
        descriptor(lo, hi, nights: nights, limit: limit, ascending: ascending))
      expectMatches(
        fetched, among: fixture.trips, lo, hi, nights: nights, limit: limit, ascending: ascending)
    }
    let plan = try context.explain(descriptor(0, 30, nights: 2, limit: 50, ascending: true))
    #expect(plan.contains("plan: reused from the cache"), "\(plan)")
    #expect(plan.contains("ordered(start) walk"), "\(plan)")
  }

  @Test("deleted trips, unsaved and then saved, are never returned")
  func deletions() throws {
    var random = SplitMix64(seed: 9)
    var remaining = fixture.trips
    for trip in fixture.trips where Int.random(in: 0..<3, using: &random) == 0 {
      context.delete(trip)
    }
    remaining.removeAll { $0.isDeleted }
    for isSaved in [false, true] {
      if isSaved { try context.save() }
      for (lo, hi, nights, limit) in [(0, 120, -1, 50), (10, 40, 1, 7), (0, 200, 3, 2_000)] {
        for ascending in [true, false] {
          let fetched = try context.fetch(
            descriptor(lo, hi, nights: nights, limit: limit, ascending: ascending))
          expectMatches(
            fetched, among: remaining, lo, hi, nights: nights, limit: limit, ascending: ascending)
        }
      }
    }
  }

  @Test("a cached shape with a type test binds each class's own condition")
  func typeTestShape() throws {
    var random = SplitMix64(seed: 13)
    for _ in 0..<20 {
      let lo = Int.random(in: 0...100, using: &random)
      let (low, high) = (date(lo), date(lo + 30))
      var descriptor = FetchDescriptor<QTrip>(
        predicate: #Predicate { $0 is QBusiness && $0.start >= low && $0.start < high },
        sortBy: [SortDescriptor(\.start)])
      descriptor.fetchLimit = 10
      let expected = fixture.trips.filter { $0 is QBusiness && $0.start >= low && $0.start < high }
        .map(\.start).sorted().prefix(10)
      let fetched = try context.fetch(descriptor)
      #expect(fetched.map(\.start) == Array(expected))
      #expect(fetched.allSatisfy { $0 is QBusiness })
    }
  }

  @Test("inclusive and open upper bounds, with unsaved inserts laid over the index")
  func upperBoundsAndInserts() throws {
    var random = SplitMix64(seed: 17)
    var trips = fixture.trips
    for index in 0..<40 {
      let trip = QueryFixture.makeTrip(10_000 + index, &random)
      context.insert(trip)
      trips.append(trip)
    }
    for isSaved in [false, true] {
      if isSaved { try context.save() }
      for (lo, hi) in [(0, 0), (5, 20), (50, 119), (119, 500), (-10, 3)] {
        for limit in [1, 9, 1_000] {
          for ascending in [true, false] {
            let (low, high) = (date(lo), date(hi))
            var closed = FetchDescriptor<QTrip>(
              predicate: #Predicate { $0.start >= low && $0.start <= high },
              sortBy: [SortDescriptor(\.start, order: ascending ? .forward : .reverse)])
            closed.fetchLimit = limit
            let expected = trips.filter { $0.start >= low && $0.start <= high }.map(\.start)
              .sorted(by: ascending ? (<) : (>)).prefix(limit)
            #expect(try context.fetch(closed).map(\.start) == Array(expected), "\(lo)...\(hi)")
            var open = FetchDescriptor<QTrip>(
              predicate: #Predicate { $0.start > low },
              sortBy: [SortDescriptor(\.start, order: ascending ? .forward : .reverse)])
            open.fetchLimit = limit
            let above = trips.filter { $0.start > low }.map(\.start)
              .sorted(by: ascending ? (<) : (>)).prefix(limit)
            #expect(try context.fetch(open).map(\.start) == Array(above), "> \(lo)")
          }
        }
      }
    }
  }

  @Test(
    "unsaved inserts, deletes and moved keys together, merged across subclasses, deep and shallow")
  func mergeOverPendingChanges() throws {
    var random = SplitMix64(seed: 23)
    var trips = fixture.trips
    for index in 0..<60 {
      let trip = QueryFixture.makeTrip(20_000 + index, &random)
      context.insert(trip)
      trips.append(trip)
    }
    for trip in fixture.trips where Int.random(in: 0..<5, using: &random) == 0 {
      context.delete(trip)
    }
    for trip in fixture.trips where !trip.isDeleted && Int.random(in: 0..<7, using: &random) == 0 {
      trip.start = date(Int.random(in: 0..<120, using: &random))
    }
    trips.removeAll { $0.isDeleted }
    for isSaved in [false, true] {
      if isSaved { try context.save() }
      for round in 0..<24 {
        let lo = Int.random(in: -5...110, using: &random)
        let hi = lo + Int.random(in: 1...40, using: &random)
        let limit = [1, 13, 50, 5_000][round % 4]
        let ascending = round % 3 != 0
        let (low, high) = (date(lo), date(hi))
        var deep = FetchDescriptor<QTrip>(
          predicate: #Predicate { $0.start >= low && $0.start < high },
          sortBy: [SortDescriptor(\.start, order: ascending ? .forward : .reverse)])
        deep.fetchLimit = limit
        let matching = trips.filter { $0.start >= low && $0.start < high }
        let fetched = try context.fetch(deep)
        let starts = matching.map(\.start).sorted(by: ascending ? (<) : (>)).prefix(limit)
        #expect(fetched.map(\.start) == Array(starts), "\(lo)..<\(hi) limit \(limit)")
        let chosen = Set(matching.map(ObjectIdentifier.init))
        #expect(fetched.allSatisfy { chosen.contains(ObjectIdentifier($0)) })
        #expect(Set(fetched.map(ObjectIdentifier.init)).count == fetched.count)
        var shallow = deep
        shallow.includesSubclasses = false
        let exact = matching.filter { type(of: $0) == QTrip.self }.map(\.start)
          .sorted(by: ascending ? (<) : (>)).prefix(limit)
        let fetchedExact = try context.fetch(shallow)
        #expect(fetchedExact.map(\.start) == Array(exact), "shallow \(lo)..<\(hi)")
        #expect(fetchedExact.allSatisfy { type(of: $0) == QTrip.self })
      }
    }
  }
}
