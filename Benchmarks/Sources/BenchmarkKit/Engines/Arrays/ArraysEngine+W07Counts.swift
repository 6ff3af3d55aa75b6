extension ArraysEngine {
  /// W7.business: how many trips are business trips.
  ///
  /// - Complexity: O(N).
  func businessCount() -> Tally {
    Tally(count: trips.count { $0 is PlainBusinessTrip })
  }

  /// W7.activity: how many activities are not complete.
  ///
  /// - Complexity: O(N).
  func incompleteActivityCount() -> Tally {
    var count = 0
    for trip in trips {
      for activity in trip.activities where !activity.isComplete { count += 1 }
    }
    return Tally(count: count)
  }
}
