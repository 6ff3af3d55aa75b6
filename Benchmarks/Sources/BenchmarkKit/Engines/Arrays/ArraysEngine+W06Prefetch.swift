extension ArraysEngine {
  /// W6: the first 1 000 trips by start date; sum their accommodations' nightly rates in cents
  /// and count their incomplete activities.
  ///
  /// - Complexity: O(N log N): there is no index to read the first trips from.
  func prefetchSum() -> Tally {
    let first = trips.sorted { $0.startDate < $1.startDate }.prefix(1_000)
    var prefetch = PrefetchTally()
    for trip in first {
      prefetch.addTrip()
      for stay in trip.accommodations { prefetch.add(nightlyRate: stay.nightlyRate) }
      for activity in trip.activities { prefetch.add(isComplete: activity.isComplete) }
    }
    return prefetch.tally
  }
}
