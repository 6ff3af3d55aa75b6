import Foundation
import ModelGraph
import Testing

/// Indexes stay exact through saves (derived from the previous version's index), pending
/// changes (laid over the saved index) and other contexts' saves.
@Suite("Query: indexes kept current")
struct QueryIndexMaintenanceTests {
  /// Queries that read each index kind, with the same test as a closure for comparison.
  static func indexedQueries() -> [(String, Predicate<QTrip>, [SortDescriptor<QTrip>], Int?)] {
    let lo = QueryFixture.epoch + 15 * QueryFixture.day
    let hi = QueryFixture.epoch + 45 * QueryFixture.day
    let three = 3
    let beach = QKind.beach
    let code = "C4"
    let oslo = "Oslo"
    return [
      (
        "range, sorted, limited", #Predicate { $0.start >= lo && $0.start < hi },
        [SortDescriptor(\.start)], 9
      ),
      (
        "range descending", #Predicate { $0.start >= lo },
        [SortDescriptor(\.start, order: .reverse)], 7
      ),
      ("ordered equality", #Predicate { $0.nights == three }, [], nil),
      ("hash equality", #Predicate { $0.kind == beach }, [], nil),
      ("optional ordered equality", #Predicate { $0.code == code }, [], nil),
      ("nil in an ordered index", #Predicate { $0.code == nil }, [], nil),
      ("prefix", #Predicate { $0.name.starts(with: oslo) }, [SortDescriptor(\.name)], nil),
      (
        "no condition, sorted", #Predicate { _ in true },
        [SortDescriptor(\.nights), SortDescriptor(\.name)], 20
      ),
    ]
  }

  /// An ordered index's changes are laid over an earlier saved index until they outgrow 64
  /// entries a table, then folded into it: 20 rounds (about 33 rows a save over four tables)
  /// do both several times.
  @Test("after each of several saves of inserts, changes and deletes", arguments: [6, 20])
  func acrossSaves(rounds: Int) throws {
    let fixture = try QueryFixture.make(count: 150, seed: 21)
    let context = fixture.context
    var random = SplitMix64(seed: 77)
    var trips = fixture.trips
    for round in 0..<rounds {
      try expectIndexedQueriesMatch(context)
      for index in 0..<10 {
        let trip = QueryFixture.makeTrip(10_000 + round * 100 + index, &random)
        context.insert(trip)
        trips.append(trip)
      }
      for trip in trips.shuffled(using: &random).prefix(15) where !trip.isDeleted {
        trip.start =
          QueryFixture.epoch + Double(Int.random(in: 0..<120, using: &random)) * QueryFixture.day
        trip.nights = Int.random(in: 0..<10, using: &random)
        trip.kind = QKind.allCases.randomElement(using: &random)!
        trip.code = Bool.random(using: &random) ? nil : "C\(Int.random(in: 0..<20, using: &random))"
      }
      for trip in trips.shuffled(using: &random).prefix(8) where !trip.isDeleted {
        context.delete(trip)
      }
      try expectIndexedQueriesMatch(context)
      try context.save()
    }
    try expectIndexedQueriesMatch(context)
  }

  @Test("another context's saves are seen after a refresh")
  func otherContexts() throws {
    let fixture = try QueryFixture.make(count: 120, seed: 5)
    let other = ModelContext(fixture.context.container)
    try expectIndexedQueriesMatch(fixture.context)
    let theirs = try other.fetch(FetchDescriptor<QTrip>())
    for trip in theirs.prefix(30) { trip.nights = 3 }
    for trip in theirs.dropFirst(30).prefix(10) { other.delete(trip) }
    var random = SplitMix64(seed: 8)
    for index in 0..<12 { other.insert(QueryFixture.makeTrip(5_000 + index, &random)) }
    try other.save()
    try expectIndexedQueriesMatch(fixture.context)
    try expectIndexedQueriesMatch(other)
    let three = 3
    #expect(
      try fixture.context.fetchCount(
        FetchDescriptor<QTrip>(predicate: #Predicate { $0.nights == three }))
        >= 30)
  }

  @Test("includePendingChanges false reads saved objects only, through indexes too")
  func savedOnly() throws {
    let fixture = try QueryFixture.make(count: 100, seed: 9)
    let context = fixture.context
    var random = SplitMix64(seed: 10)
    let added = (0..<10).map { QueryFixture.makeTrip(3_000 + $0, &random) }
    for trip in added { context.insert(trip) }
    for trip in fixture.trips.prefix(5) { context.delete(trip) }
    let three = 3
    var descriptor = FetchDescriptor<QTrip>(predicate: #Predicate { $0.nights >= three })
    descriptor.includePendingChanges = false
    let saved = try context.fetch(descriptor)
    let addedNames = Set(names(added))
    #expect(saved.allSatisfy { !addedNames.contains($0.name) && !$0.isDeleted })
    let expected = fixture.trips.dropFirst(5).filter { $0.nights >= three }
    #expect(Set(names(saved)) == Set(names(Array(expected))))
    #expect(try context.fetchCount(descriptor) == expected.count)
    #expect(try context.explain(descriptor).contains("saved objects only"))
  }

  private func expectIndexedQueriesMatch(_ context: ModelContext) throws {
    let all = try context.fetch(FetchDescriptor<QTrip>())
    for (name, predicate, sort, limit) in Self.indexedQueries() {
      var descriptor = FetchDescriptor(predicate: predicate, sortBy: sort)
      descriptor.fetchLimit = limit
      let matching = try all.filter { try predicate.evaluate($0) }
      let sorted = sort.isEmpty ? matching : matching.sorted(using: sort)
      let expected = limit.map { Array(sorted.prefix($0)) } ?? sorted
      let found = try context.fetch(descriptor)
      #expect(names(found) == names(expected), "\(name)")
      let plan = try context.explain(descriptor)
      #expect(plan.contains("ordered(") || plan.contains("hash("), "\(name): \(plan)")
    }
  }
}
