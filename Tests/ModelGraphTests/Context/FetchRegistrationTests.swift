import Foundation
import Testing

@testable import ModelGraph

/// How a fetch registers the handles it makes: one per row, found again while alive, gone from
/// the identity map once freed, marked changed when their row has unsaved changes.
@Suite("Fetch registration in the identity map")
struct FetchRegistrationTests {
  /// The number of handles `context` has registered, over every entity.
  private func registeredCount(_ context: ModelContext) -> Int {
    (0..<context.registered.entityCount).reduce(0) { $0 + context.registered.count(ofEntity: $1) }
  }

  @Test(
    "each row gets one handle, found again by later fetches and lookups; freed handles leave",
    arguments: [10, 200])
  func registersOncePerRow(count: Int) throws {
    // 200 trips put more than the hash table's threshold of handles in each entity's table.
    let context = try freshContextWithSavedTrips(count)
    do {
      let trips = try context.fetch(FetchDescriptor<Trip>())
      #expect(trips.count == count)
      #expect(Set(trips.map(ObjectIdentifier.init)).count == count)
      #expect(registeredCount(context) == count)
      let again = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
      #expect(Set(again.map(ObjectIdentifier.init)) == Set(trips.map(ObjectIdentifier.init)))
      let businessTrips = try context.fetch(FetchDescriptor<BusinessTrip>())
      #expect(businessTrips.allSatisfy { trip in trips.contains { $0 === trip } })
      for trip in trips.prefix(5) {
        #expect(context.model(for: trip.persistentModelID) as? Trip === trip)
      }
      #expect(registeredCount(context) == count)
    }
    #expect(registeredCount(context) == 0)
    // Made again after being freed: new handles reading the same rows.
    let names = try context.fetch(FetchDescriptor<Trip>()).map(\.name)
    #expect(Set(names) == Set((0..<count).map { "trip \($0)" }))
    #expect(registeredCount(context) == 0)
  }

  @Test("a handle made by a lookup before the fetch is the one the fetch returns")
  func lookupThenFetch() throws {
    let context = try freshContextWithSavedTrips(40)
    let identifiers = try ModelContext(context.container).fetch(FetchDescriptor<Trip>())
      .map(\.persistentModelID)
    let looked = identifiers.prefix(20).compactMap { context.model(for: $0) as? Trip }
    #expect(looked.count == 20)
    let fetched = try context.fetch(FetchDescriptor<Trip>())
    for trip in looked { #expect(fetched.contains { $0 === trip }) }
    #expect(registeredCount(context) == 40)
  }

  @Test("a row changed and not saved comes back, after its handle was freed, as a changed object")
  func changedRowRefetched() throws {
    let context = try freshContextWithSavedTrips(60)
    do {
      let trips = try context.fetch(FetchDescriptor<Trip>())
      for trip in trips where trip.name.hasSuffix("7") { trip.name += " changed" }
    }
    let trips = try context.fetch(FetchDescriptor<Trip>())
    for trip in trips {
      #expect(trip.hasChanges == trip.name.hasSuffix("7 changed"))
      #expect(trip.modelContext === context)
    }
    #expect(trips.filter(\.hasChanges).count == 6)
  }
}
