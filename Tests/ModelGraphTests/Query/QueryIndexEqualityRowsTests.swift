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

  @Test("one table with more matching rows than a block of stamps: every row, every window")
  func manyRowsInOneTable() throws {
    let fixture = try QueryFixture.make(count: 200, seed: 41)
    let context = fixture.context
    // 900 rows of one company in one table: the walk loads their stamps in blocks of 256.
    var made: [QBusiness] = []
    for index in 0..<900 {
      let trip = QBusiness()
      trip.name = "Hooli \(index)"
      trip.start = Date(timeIntervalSince1970: Double(index) * 86_400)
      trip.budget = Double(index)
      trip.nights = index % 10
      trip.small = 1
      trip.tags = []
      trip.kind = .beach
      trip.company = "Hooli"
      context.insert(trip)
      made.append(trip)
    }
    try context.save()
    // Dead rows in every block: deleted and saved, and deleted in the context only.
    for (index, trip) in made.enumerated() where index % 7 == 3 { context.delete(trip) }
    try context.save()
    for (index, trip) in made.enumerated() where index % 13 == 5 && index % 7 != 3 {
      context.delete(trip)
    }
    let expected = made.enumerated()
      .filter { $0.offset % 7 != 3 && $0.offset % 13 != 5 }
      .map { ObjectIdentifier($0.element) }
    let company = "Hooli"
    let whole = try context.fetch(
      FetchDescriptor<QBusiness>(predicate: #Predicate { $0.company == company }))
    #expect(whole.map(ObjectIdentifier.init) == expected)
    let windows = [
      (0, 1), (0, 255), (0, 256), (0, 257), (250, 20), (255, 2), (256, 300), (500, 400),
      (expected.count - 1, 5), (0, 10_000),
    ]
    for (offset, limit) in windows {
      var descriptor = FetchDescriptor<QBusiness>(predicate: #Predicate { $0.company == company })
      descriptor.fetchOffset = offset
      descriptor.fetchLimit = limit
      let fetched = try context.fetch(descriptor)
      let slice = expected[min(offset, expected.count)..<min(offset + limit, expected.count)]
      #expect(
        fetched.map(ObjectIdentifier.init) == Array(slice), "offset \(offset), limit \(limit)")
    }
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
