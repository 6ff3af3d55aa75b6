import Foundation

extension ArraysEngine {
  /// Plain property reads and writes, and a dictionary lookup by identifier.
  package func microPlans(scratch: String) -> [(MicroJobID, MicroPlan)] {
    let trips = self.trips
    let byIdentifier = Dictionary(uniqueKeysWithValues: trips.map { ($0.identifier, $0) })
    let identifiers = trips.map(\.identifier)
    return [
      (.read, .timed(operations: trips.count) { Self.readBudgets(trips) }),
      (.write, .timed(operations: trips.count) { Self.writeBudgets(trips) }),
      (
        .lookup,
        .timed(operations: identifiers.count) {
          var checksum = StartDateChecksum()
          for identifier in identifiers {
            if let trip = byIdentifier[identifier] { checksum.add(trip.startSeconds) }
          }
          return checksum.tally
        }
      ),
      (.plan, .skipped(reason: "arrays have no query planning")),
      (.materialize, .skipped(reason: "plain objects are always materialized")),
    ]
  }

  /// Sums every trip's budget in cents.
  static func readBudgets(_ trips: [PlainTrip]) -> Tally {
    var cents: Int64 = 0
    for trip in trips { cents &+= Int64((trip.budget * 100).rounded()) }
    return Tally(count: trips.count, check: String(cents))
  }

  /// Sets every trip's budget to its position.
  static func writeBudgets(_ trips: [PlainTrip]) -> Tally {
    var value = 0.0
    for trip in trips {
      trip.budget = value
      value += 1
    }
    return Tally(count: trips.count)
  }
}
