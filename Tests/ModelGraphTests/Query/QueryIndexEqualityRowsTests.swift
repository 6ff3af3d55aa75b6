import Foundation
import ModelGraph
import Testing

/// Fetches answered by a hash index alone (an equality test and nothing else), whose keys are
/// made from the index's rows in one pass over their stamps: deleted rows (saved and not),
/// several tables of a deep fetch, and windows that stop the walk early.
@Suite("Query: keys made from a hash index's rows alone")
struct QueryIndexEqualityRowsTests {
  @Test("deleted rows are skipped and every window is a slice of the whole answer")
  func windows() throws {
    let fixture = try QueryFixture.make(count: 3_000, seed: 31)
    let context = fixture.context
    var trips = fixture.trips
    // Deleted and saved: the rows are dead in the committed tables.
    for (index, trip) in trips.enumerated() where index % 5 == 1 { context.delete(trip) }
    try context.save()
    trips = trips.enumerated().filter { $0.offset % 5 != 1 }.map(\.element)
    // Deleted and not saved: the rows are dead in the context's working tables only.
    for (index, trip) in trips.enumerated() where index % 11 == 4 { context.delete(trip) }
    trips = trips.enumerated().filter { $0.offset % 11 != 4 }.map(\.element)
    let kind = QKind.beach
    let matching = Set(trips.filter { $0.kind == kind }.map(ObjectIdentifier.init))
    #expect(matching.count > 100)
    let whole = try context.fetch(FetchDescriptor<QTrip>(predicate: #Predicate { $0.kind == kind }))
    #expect(Set(whole.map(ObjectIdentifier.init)) == matching)
    #expect(whole.count == matching.count, "no object twice")
    // More than one class's table holds matches: the walk crosses tables.
    #expect(Set(whole.map { ObjectIdentifier(type(of: $0)) }).count > 1)
    for (offset, limit) in [(0, 0), (0, 1), (0, 7), (3, 10), (matching.count - 2, 5), (0, 50_000)] {
      var descriptor = FetchDescriptor<QTrip>(predicate: #Predicate { $0.kind == kind })
      descriptor.fetchOffset = offset
      descriptor.fetchLimit = limit
      let fetched = try context.fetch(descriptor)
      let expected = whole[min(offset, whole.count)..<min(offset + limit, whole.count)]
      #expect(
        fetched.map(ObjectIdentifier.init) == expected.map(ObjectIdentifier.init),
        "offset \(offset), limit \(limit)")
    }
    let plan = try context.explain(
      FetchDescriptor<QTrip>(predicate: #Predicate { $0.kind == kind }))
    #expect(plan.contains("hash(kind)"), "\(plan)")
  }

  @Test("an object deleted after an earlier fetch of the same shape is no longer returned")
  func deletedBetweenFetches() throws {
    let fixture = try QueryFixture.make(count: 400, seed: 37)
    let context = fixture.context
    let company = "Globex"
    let descriptor = FetchDescriptor<QBusiness>(predicate: #Predicate { $0.company == company })
    let before = try context.fetch(descriptor)
    #expect(before.count > 2)
    context.delete(before[1])
    let after = try context.fetch(descriptor)
    #expect(
      after.map(ObjectIdentifier.init)
        == before.map(ObjectIdentifier.init).filter {
          $0 != ObjectIdentifier(before[1])
        })
    context.rollback()
    #expect(try context.fetch(descriptor).count == before.count)
  }
}
