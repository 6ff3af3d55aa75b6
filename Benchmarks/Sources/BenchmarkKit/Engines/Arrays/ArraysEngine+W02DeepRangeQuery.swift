import Foundation

extension ArraysEngine {
  /// W2: every trip with `lo ≤ startDate < hi`, sorted by start date, first 50, per window.
  ///
  /// - Complexity: O(N + k log k) per window, for k trips in the window.
  func rangeQueryPlan(_ parameters: QueryParameters) -> JobPlan {
    let windows = parameters.windows.map {
      (lo: Date(seconds: $0.lo), hi: Date(seconds: $0.hi))
    }
    return .timed { [unowned self] in
      var checksum = StartDateChecksum()
      for window in windows {
        try RunDeadline.check()
        let page = trips.filter { window.lo <= $0.startDate && $0.startDate < window.hi }
          .sorted { $0.startDate < $1.startDate }
          .prefix(50)
        for trip in page { checksum.add(trip.startSeconds) }
      }
      return checksum.tally
    }
  }
}
