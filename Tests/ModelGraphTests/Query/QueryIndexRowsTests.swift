import Foundation
import ModelGraph
import Testing

/// Fetches answered from a hash index's rows, more than one filter block of them (1,024), with
/// a further condition, deleted rows among them and limits that stop the walk early, checked
/// against filtering the objects in memory.
@Suite("Query: rows a hash index yields, filtered a block at a time")
struct QueryIndexRowsTests {
  @Test("limits, deleted rows and a second condition give the rows array filtering finds")
  func blocks() throws {
    let fixture = try QueryFixture.make(count: 18_000, seed: 23)
    let context = fixture.context
    // Deleted rows inside the index's row lists.
    var trips = fixture.trips
    for (index, trip) in trips.enumerated() where index % 7 == 3 { context.delete(trip) }
    try context.save()
    trips = trips.enumerated().filter { $0.offset % 7 != 3 }.map(\.element)
    let kind = QKind.beach
    for budget in [-1.0, 500, 1_500, 1e9] {
      let matching = trips.filter { $0.kind == kind && $0.budget > budget }
      let chosen = Set(matching.map(ObjectIdentifier.init))
      for limit in [nil, 1, 5, 1_100, 50_000] as [Int?] {
        var descriptor = FetchDescriptor<QTrip>(
          predicate: #Predicate { $0.kind == kind && $0.budget > budget })
        descriptor.fetchLimit = limit
        let fetched = try context.fetch(descriptor)
        let label = "budget > \(budget), limit \(String(describing: limit))"
        #expect(fetched.count == min(limit ?? .max, matching.count), "\(label)")
        #expect(fetched.allSatisfy { chosen.contains(ObjectIdentifier($0)) }, "\(label)")
        #expect(Set(fetched.map(ObjectIdentifier.init)).count == fetched.count, "\(label)")
      }
      let counted = try context.fetchCount(
        FetchDescriptor<QTrip>(predicate: #Predicate { $0.kind == kind && $0.budget > budget }))
      #expect(counted == matching.count, "count, budget > \(budget)")
    }
    let plan = try context.explain(
      FetchDescriptor<QTrip>(predicate: #Predicate { $0.kind == kind && $0.budget > 500 }))
    #expect(plan.contains("hash(kind)"), "\(plan)")
    let perTable = trips.filter { type(of: $0) == QTrip.self && $0.kind == kind }.count
    #expect(perTable > 1_024, "one table's index rows span more than one block")
  }
}
