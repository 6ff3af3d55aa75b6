extension ArraysEngine {
  /// W4: how many trips are personal trips for a vacation.
  ///
  /// - Complexity: O(N).
  func reasonCount() -> Tally {
    Tally(count: trips.count { ($0 as? PlainPersonalTrip)?.reason == .vacation })
  }
}
