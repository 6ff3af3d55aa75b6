import Foundation

extension ArraysEngine {
  /// W12: per transaction, trip `k` found by a linear search for its identifier (the arrays
  /// have no index), `budget += 1` on it, and the new trip appended with its activity; there
  /// is nothing to save.
  ///
  /// Before every run the trips the previous run appended are removed, outside the clock.
  /// - Complexity: O(T × N).
  func smallTransactionsPlan(_ work: SmallTransactions) -> JobPlan {
    let tripsBefore = trips.count
    return .timed(
      TimedJob(
        setUp: { [unowned self] in
          if trips.count > tripsBefore { trips.removeLast(trips.count - tripsBefore) }
        },
        body: { [unowned self] in
          var checksum = StartDateChecksum()
          for transaction in work.transactions {
            try RunDeadline.check()
            let identifier = transaction.lookupIdentifier
            if let found = trips.first(where: { $0.identifier == identifier }) {
              found.budget += 1
              checksum.add(found.startSeconds)
            }
            let trip = PlainTrip.make(transaction.trip)
            trip.activities.append(
              PlainActivity(
                name: transaction.activityName, isComplete: false, dateCreated: trip.startDate,
                trip: trip))
            trips.append(trip)
          }
          return checksum.tally
        }))
  }
}
