import Foundation

/// Plain Swift arrays: `[PlainTrip]` of plain classes, `filter`/`sorted`/`prefix`, no indexes.
///
/// The hand-written data source an app has before it adopts a store: the floor for a full scan
/// and the ceiling that indexes must beat. Accommodations and activities live in their trip's
/// arrays and point back weakly; deleting a trip drops them with it.
package final class ArraysEngine: BenchmarkEngine {
  /// The trips of the current store.
  package var trips: [PlainTrip] = []

  /// An empty engine.
  package init() {}

  /// `arrays`.
  package var name: String { "arrays" }

  /// How W10 is done.
  package var notes: [String] {
    [
      "arrays: [PlainTrip] of plain classes (subclasses for BusinessTrip and PersonalTrip), "
        + "children in arrays on the trip with weak back references; no indexes; "
        + "W10 writes a hand-written binary encoding (Foundation Data, fsync, rename)"
    ]
  }

  /// Drops every trip.
  package func unload() {
    trips = []
  }

  /// Creates every object and links each child to its trip; nothing to save.
  ///
  /// - Complexity: O(N).
  package func load(_ dataSet: DataSet) throws -> Tally {
    trips = Self.makeTrips(dataSet)
    return Tally(count: dataSet.objectCount)
  }

  /// Builds the object graph of a data set.
  package static func makeTrips(_ dataSet: DataSet) -> [PlainTrip] {
    var trips: [PlainTrip] = []
    trips.reserveCapacity(dataSet.trips.count)
    for (index, record) in dataSet.trips.enumerated() {
      let trip = PlainTrip.make(record)
      trip.accommodations.reserveCapacity(2)
      for stay in dataSet.accommodations[(2 * index)..<(2 * index + 2)] {
        trip.accommodations.append(
          PlainAccommodation(name: stay.name, nightlyRate: stay.nightlyRate, trip: trip))
      }
      trip.activities.reserveCapacity(3)
      for activity in dataSet.activities[(3 * index)..<(3 * index + 3)] {
        trip.activities.append(
          PlainActivity(
            name: activity.name, isComplete: activity.isComplete,
            dateCreated: Date(seconds: activity.dateCreated), trip: trip))
      }
      trips.append(trip)
    }
    return trips
  }

  /// The work of `job` on the current trips.
  package func plan(_ job: JobID, parameters: QueryParameters, scratch: String) -> JobPlan {
    switch job {
    case .w2: rangeQueryPlan(parameters)
    case .w3: companyQueryPlan(parameters)
    case .w4: .timed { [unowned self] in reasonCount() }
    case .w5: .timed { [unowned self] in nameSearch() }
    case .w6: .timed { [unowned self] in prefetchSum() }
    case .w7Trip: .timed { [unowned self] in Tally(count: trips.count) }
    case .w7Business: .timed { [unowned self] in businessCount() }
    case .w7Activity: .timed { [unowned self] in incompleteActivityCount() }
    case .w8: .timed { [unowned self] in raiseBudgets() }
    case .w9: .timed { [unowned self] in cascadeDelete() }
    case .w10Save: savePlan(scratch: scratch)
    case .w10Load: loadPlan(scratch: scratch)
    case .w12: smallTransactionsPlan(parameters.transactions)
    case .w12Threads2, .w12Threads4:
      .skipped(
        reason: "writer scaling is measured for ModelGraph only (plain arrays take no locks)")
    case .w13, .w13Threads4: .skipped(reason: "plain arrays have no file to make durable")
    case .w1, .w11: .skipped(reason: "run by the harness")
    }
  }
}
