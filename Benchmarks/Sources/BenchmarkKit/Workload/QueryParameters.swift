/// The query parameters: 1 000 date windows, then 1 000 companies, from ``SplitMix64`` seeded 43;
/// and W12's small transactions, from ``SplitMix64`` seeded 44 (they depend on the data set).
package struct QueryParameters: Sendable {
  /// One 30-day window of start dates, `lo ≤ startDate < hi`, in seconds since 1970.
  package struct Window: Sendable {
    /// Inclusive lower bound.
    package var lo: Int64
    /// Exclusive upper bound.
    package var hi: Int64
  }

  /// The W2 windows.
  package var windows: [Window] = []
  /// The W3 companies, "Company k".
  package var companies: [String] = []
  /// The W12 transactions (none without a data set).
  package var transactions = SmallTransactions()
  /// The W13 store and transactions (none without a data set).
  package var durable = DurableTransactions()

  /// Draws the parameters: the windows and companies do not depend on the scale; the W12
  /// transactions look up trips of `dataSet`, so they are drawn only when it is given.
  package init(dataSet: DataSet? = nil) {
    if let dataSet {
      transactions = SmallTransactions(dataSet: dataSet)
      durable = DurableTransactions(dataSet: dataSet)
    }
    var random = SplitMix64(seed: 43)
    let month = 30 * WorkloadCalendar.day
    let span = WorkloadCalendar.end - WorkloadCalendar.start - month
    for _ in 0..<1_000 {
      let lo = WorkloadCalendar.start + random.below(span)
      windows.append(Window(lo: lo, hi: lo + month))
    }
    for _ in 0..<1_000 {
      companies.append("Company \(random.below(1_000))")
    }
  }
}
