import Foundation

extension ArraysEngine {
  /// W8: `budget += 1` on every trip that starts before 2021.
  ///
  /// - Complexity: O(N).
  func raiseBudgets() -> Tally {
    let cutoff = Date(seconds: WorkloadCalendar.updateCutoff)
    var updated = 0
    for trip in trips where trip.startDate < cutoff {
      trip.budget += 1
      updated += 1
    }
    return Tally(count: updated)
  }
}
