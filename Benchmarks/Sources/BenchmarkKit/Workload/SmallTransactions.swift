package import Foundation

/// W12's small transactions, drawn before any timing from ``SplitMix64`` seeded 44 in exactly
/// the order of benchmark-workloads.md ("W12 and W13: small transactions").
///
/// Transaction `t` inserts a new plain trip "New t" with one activity "Step t", looks up trip
/// `k` of the data set by its unique identifier, raises that trip's budget by one if it still
/// exists, and saves. The answer is the number of lookups that found their trip and the
/// wrapping sum of the found trips' start dates; it does not depend on the order in which the
/// transactions run, so any split across threads must give the same answer.
package struct SmallTransactions: Sendable {
  /// One transaction's inputs.
  package struct Transaction: Sendable {
    /// The transaction's number `t`.
    package var index: Int
    /// The new plain trip: "New t", its destination, dates, identifier and budget.
    package var trip: TripRecord
    /// "Step t": the new activity's name (not complete, created at the trip's start date).
    package var activityName: String
    /// `k`: the index in the data set of the trip to look up.
    package var lookup: Int
    /// The identifier of trip `k` of the data set, the key of the point lookup.
    package var lookupIdentifier: UUID
  }

  /// The number of transactions W12 runs: 10 000, or `MODELGRAPH_W12_TRANSACTIONS` when set
  /// (for profiling under callgrind, which runs the full count too slowly; the figure then
  /// counts the transactions run).
  package static let standardCount =
    ProcessInfo.processInfo.environment["MODELGRAPH_W12_TRANSACTIONS"].flatMap { Int($0) }
    .map { max($0, 1) } ?? 10_000

  /// The transactions, in order.
  package var transactions: [Transaction] = []
  /// `M`: the trips of the data set the store was loaded with; lookups draw below it.
  package var tripsLoaded = 0

  /// No transactions.
  package init() {}

  /// Draws `count` transactions for a store loaded with `dataSet`.
  ///
  /// - Complexity: O(count).
  package init(dataSet: DataSet, count: Int = SmallTransactions.standardCount) {
    tripsLoaded = dataSet.trips.count
    guard tripsLoaded > 0 else { return }
    transactions.reserveCapacity(count)
    var random = SplitMix64(seed: 44)
    let span = WorkloadCalendar.end - WorkloadCalendar.start
    for index in 0..<count {
      let destination = "City \(random.below(500))"
      let startDate = WorkloadCalendar.start + random.below(span)
      let identifier = DataSet.identifier(random.next(), random.next())
      let budget = Double(10_000 + random.below(990_001)) / 100
      let lookup: Int = random.below(tripsLoaded)
      let trip = TripRecord(
        kind: .trip, name: "New \(index)", destination: destination, startDate: startDate,
        endDate: startDate + WorkloadCalendar.day, identifier: identifier, budget: budget,
        company: nil, expenseReport: nil, meetingAgenda: nil, reason: nil, companions: [])
      transactions.append(
        Transaction(
          index: index, trip: trip, activityName: "Step \(index)", lookup: lookup,
          lookupIdentifier: dataSet.trips[lookup].identifier))
    }
  }

  /// The transactions that thread `thread` of `threads` runs: `t` with `t % threads == thread`,
  /// as a server's workers take requests in turn.
  package func share(thread: Int, of threads: Int) -> [Transaction] {
    stride(from: thread, to: transactions.count, by: threads).map { transactions[$0] }
  }
}
