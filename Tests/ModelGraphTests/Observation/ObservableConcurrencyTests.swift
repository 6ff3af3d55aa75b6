import Foundation
import ModelGraph
import Observation
import Testing

/// Whether a tracking's `onChange` ran, set from whichever thread fires it.
private final class Fired: @unchecked Sendable {
  // @unchecked Sendable: `value` is only reached under `lock`.
  private let lock = NSLock()
  private var fired = false

  func set() { lock.withLock { fired = true } }
  var value: Bool { lock.withLock { fired } }
}

@Suite("Observable model objects under concurrent saves")
struct ObservableConcurrencyTests {
  @Test("trackings in one context fire for the objects four concurrent contexts changed")
  func concurrentSavesFireOnRefresh() async throws {
    let container = try makeInMemoryContainer(Trip.self)
    let context = ModelContext(container)
    let trips = (0..<8).map { Trip(name: "trip \($0)") }
    for trip in trips { context.insert(trip) }
    try context.save()
    let identifiers = trips.map(\.persistentModelID)
    let names = trips.map { trip in
      let fired = Fired()
      withObservationTracking {
        _ = trip.name
      } onChange: {
        fired.set()
      }
      return fired
    }
    let dates = trips.map { trip in
      let fired = Fired()
      withObservationTracking {
        _ = trip.startDate
      } onChange: {
        fired.set()
      }
      return fired
    }

    // Four contexts rename the even trips, one each, concurrently.
    try await withThrowingTaskGroup(of: Void.self) { group in
      for worker in 0..<4 {
        group.addTask {
          let other = ModelContext(container)
          let index = worker * 2
          let trip = try #require(other.model(for: identifiers[index]) as? Trip)
          trip.name = "renamed \(index)"
          try other.save()
        }
      }
      try await group.waitForAll()
    }
    _ = try context.fetch(FetchDescriptor<Trip>())
    for index in trips.indices {
      #expect(names[index].value == index.isMultiple(of: 2), "trip \(index)")
      #expect(!dates[index].value, "trip \(index): startDate was not written")
    }
    #expect(trips[0].name == "renamed 0")
  }
}
