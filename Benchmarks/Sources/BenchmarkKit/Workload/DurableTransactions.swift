/// W13's durable small transactions: the first min(N, 100 000) trips of the data set with their
/// children, loaded into a new file-backed store before the clock starts, and 2 000 of W12's
/// transactions (the same generator, seeded 44) drawn for that store.
package struct DurableTransactions: Sendable {
  /// The number of transactions W13 runs: 2 000.
  package static let standardCount = 2_000
  /// The most trips of the data set the store is loaded with: 100 000.
  package static let tripLimit = 100_000

  /// The trips (and their accommodations and activities) the store is loaded with.
  package var dataSet = DataSet(scale: 0)
  /// The transactions, drawn for `dataSet`.
  package var work = SmallTransactions()

  /// Nothing to run.
  package init() {}

  /// The W13 inputs for a run on `full`.
  package init(dataSet full: DataSet) {
    let trips = min(full.trips.count, Self.tripLimit)
    dataSet.trips = Array(full.trips.prefix(trips))
    dataSet.accommodations = Array(full.accommodations.prefix(2 * trips))
    dataSet.activities = Array(full.activities.prefix(3 * trips))
    work = SmallTransactions(dataSet: dataSet, count: Self.standardCount)
  }

  /// The objects the store holds after the transactions: 6 × M + 2 × 2 000.
  package var expectedObjects: Int { dataSet.objectCount + 2 * work.transactions.count }
}
