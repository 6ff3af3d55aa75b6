import Foundation
import ModelGraph
import Testing

/// Handles made by fetches, and attributes left unset at insertion, read the right rows.
@Suite("Materialization and unset attributes")
struct MaterializationTests {
  @Test("a fetch over a hierarchy makes each object of its own class, reading its own row")
  func hierarchyFetch() throws {
    let fresh = try freshContextWithSavedTrips(30) { ["companion \($0)"] }
    let trips = try fresh.fetch(FetchDescriptor<Trip>())
    #expect(trips.count == 30)
    for trip in trips {
      let index = Int(trip.name.dropFirst("trip ".count))!
      switch index % 3 {
      case 0: #expect(type(of: trip) == Trip.self)
      case 1: #expect((trip as? BusinessTrip)?.company == "company \(index)")
      default: #expect((trip as? PersonalTrip)?.companions == ["companion \(index)"])
      }
    }
    // A second fetch finds the same handles in the identity map.
    let again = try fresh.fetch(FetchDescriptor<Trip>())
    #expect(zip(trips, again).allSatisfy { $0 === $1 })
  }

  @Test("an attribute left unset at insertion reads its value once written, and after a save")
  func unsetThenWritten() throws {
    let context = try makeTripContext()
    let trip = BusinessTrip()
    trip.name = "Later"
    trip.startDate = .distantPast
    trip.identifier = UUID()
    context.insert(trip)
    trip.company = "Acme"
    #expect(trip.company == "Acme")
    #expect(trip.name == "Later")
    try context.save()
    #expect(trip.company == "Acme")
    let fetched = try ModelContext(context.container).fetch(FetchDescriptor<BusinessTrip>())
    #expect(fetched.map(\.company) == ["Acme"])
  }

  @Test("an object rolled back and inserted again reads the values it is then given")
  func rolledBackThenReinserted() throws {
    let context = try makeTripContext()
    let trip = BusinessTrip()
    trip.name = "Again"
    trip.startDate = .distantPast
    trip.identifier = UUID()
    context.insert(trip)
    context.rollback()
    #expect(trip.name == "Again")

    trip.company = "Set while new"
    context.insert(trip)
    #expect(trip.company == "Set while new")
    try context.save()
    #expect(trip.company == "Set while new")
  }
}
