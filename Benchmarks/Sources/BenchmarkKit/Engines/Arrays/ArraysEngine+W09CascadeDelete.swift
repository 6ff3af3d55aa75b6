import Foundation

extension ArraysEngine {
  /// W9: removes every trip that starts in 2029 or later, with its accommodations and
  /// activities; the check is the number of objects left.
  ///
  /// - Complexity: O(N).
  func cascadeDelete() -> Tally {
    let cutoff = Date(seconds: WorkloadCalendar.deleteCutoff)
    var deleted = 0
    trips.removeAll { trip in
      guard trip.startDate >= cutoff else { return false }
      deleted += 1 + trip.accommodations.count + trip.activities.count
      return true
    }
    var left = 0
    for trip in trips { left += 1 + trip.accommodations.count + trip.activities.count }
    return Tally(count: deleted, check: String(left))
  }
}
