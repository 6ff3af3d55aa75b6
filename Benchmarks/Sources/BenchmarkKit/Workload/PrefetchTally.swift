/// Accumulates W6's answer: trips, accommodation nightly rates in cents, incomplete activities.
///
/// Each rate is rounded to cents before it is added, so the sum is exact in every engine.
package struct PrefetchTally {
  /// Trips seen.
  package var trips = 0
  /// Sum of the nightly rates, each rounded to cents.
  package var cents: Int64 = 0
  /// Activities that are not complete.
  package var incomplete = 0

  /// An empty tally.
  package init() {}

  /// Counts one trip.
  @inline(__always)
  package mutating func addTrip() { trips += 1 }

  /// Adds one accommodation's rate.
  @inline(__always)
  package mutating func add(nightlyRate: Double) {
    cents &+= Int64((nightlyRate * 100).rounded())
  }

  /// Counts one activity if it is not complete.
  @inline(__always)
  package mutating func add(isComplete: Bool) {
    if !isComplete { incomplete += 1 }
  }

  /// `count=<trips> check=<cents>/<incomplete>`.
  package var tally: Tally { Tally(count: trips, check: "\(cents)/\(incomplete)") }
}
