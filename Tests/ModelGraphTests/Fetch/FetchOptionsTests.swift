import ModelGraph
import Testing

/// Ten trips `t0`…`t9`; odd ones are business trips. Start dates increase with the number.
private func seedTen(_ context: ModelContext) throws -> [Trip] {
  let trips: [Trip] = (0..<10).map { index in
    let trip =
      index.isMultiple(of: 2)
      ? Trip(name: "t\(index)") : BusinessTrip(name: "t\(index)", company: "c\(index)")
    trip.startDate = Date(timeIntervalSince1970: Double(index) * 86_400)
    return trip
  }
  for trip in trips { context.insert(trip) }
  try context.save()
  return trips
}

private let byName = [SortDescriptor(\Trip.name)]

@Suite("Fetch options: counts, identifiers, limit, offset, pending changes")
struct FetchOptionsTests {
  @Test("fetchCount matches fetch with and without a predicate")
  func fetchCount() throws {
    let context = try makeTripContext()
    _ = try seedTen(context)
    #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 10)
    #expect(try context.fetchCount(FetchDescriptor<BusinessTrip>()) == 5)
    let predicate = #Predicate<Trip> { $0.name > "t6" }
    #expect(try context.fetchCount(FetchDescriptor(predicate: predicate)) == 3)
    #expect(try context.fetch(FetchDescriptor(predicate: predicate)).count == 3)
  }

  @Test("fetchIdentifiers returns the identifiers of fetch, in its order")
  func fetchIdentifiers() throws {
    let context = try makeTripContext()
    let trips = try seedTen(context)
    let descriptor = FetchDescriptor<Trip>(
      predicate: #Predicate { $0.name != "t3" },
      sortBy: [SortDescriptor(\.startDate, order: .reverse)])
    let ids = try context.fetchIdentifiers(descriptor)
    let expected = trips.reversed().filter { $0.name != "t3" }.map(\.persistentModelID)
    #expect(ids == expected)
    #expect(try context.fetch(descriptor).map(\.persistentModelID) == expected)
  }

  @Test(
    "fetchLimit and fetchOffset slice the sorted results",
    arguments: [(nil, nil), (3, nil), (nil, 4), (3, 4), (0, 2), (5, 8), (20, 0), (2, 20)]
      as [(Int?, Int?)])
  func limitAndOffset(limit: Int?, offset: Int?) throws {
    let context = try makeTripContext()
    _ = try seedTen(context)
    var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name, order: .reverse)])
    descriptor.fetchLimit = limit
    descriptor.fetchOffset = offset
    let all = (0..<10).map { "t\($0)" }.reversed().map { $0 }
    let start = min(offset ?? 0, all.count)
    let end = limit.map { min(all.count, start + $0) } ?? all.count
    let expected = Array(all[start..<end])
    #expect(try context.fetch(descriptor).map(\.name) == expected)
    #expect(try context.fetchCount(descriptor) == expected.count)
    #expect(try context.fetchIdentifiers(descriptor).count == expected.count)
  }

  @Test("limit and offset apply after the predicate")
  func limitAfterPredicate() throws {
    let context = try makeTripContext()
    _ = try seedTen(context)
    var descriptor = FetchDescriptor<Trip>(
      predicate: #Predicate { $0 is BusinessTrip }, sortBy: byName)
    descriptor.fetchOffset = 1
    descriptor.fetchLimit = 2
    #expect(try context.fetch(descriptor).map(\.name) == ["t3", "t5"])
    #expect(try context.fetchCount(descriptor) == 2)
  }

  @Test(
    "includePendingChanges false ignores unsaved inserts")
  func excludesPendingInserts() throws {
    let context = try makeTripContext()
    _ = try seedTen(context)
    context.insert(Trip(name: "new"))
    context.insert(BusinessTrip(name: "new-business", company: "x"))
    var committed = FetchDescriptor<Trip>(sortBy: byName)
    committed.includePendingChanges = false
    #expect(try context.fetch(committed).map(\.name) == (0..<10).map { "t\($0)" })
    #expect(try context.fetchCount(committed) == 10)
    #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 12)
    #expect(try context.fetch(FetchDescriptor<Trip>(sortBy: byName)).count == 12)
  }

  @Test(
    "deleted objects are never returned, even with includePendingChanges false")
  func excludesPendingDeletes() throws {
    let context = try makeTripContext()
    let trips = try seedTen(context)
    context.delete(trips[0])
    context.delete(trips[1])
    var committed = FetchDescriptor<Trip>()
    committed.includePendingChanges = false
    #expect(try context.fetchCount(committed) == 8)
    #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 8)
    #expect(try context.fetch(committed).allSatisfy { !$0.isDeleted })
  }
}
