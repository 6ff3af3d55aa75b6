/// How a job's figure is derived from its median run, and which way is better.
package enum Figure: Equatable, Sendable {
  /// `count / seconds`; higher is better.
  case objectsPerSecond
  /// `queries / seconds`, with the number of queries in one run; higher is better.
  case queriesPerSecond(Int)
  /// `transactions / seconds`, with the number of transactions in one run; higher is better.
  case transactionsPerSecond(Int)
  /// Milliseconds per run; lower is better.
  case milliseconds
  /// Microseconds per run; lower is better.
  case microseconds
  /// Nanoseconds per operation, with the operations in one run; lower is better.
  case nanoseconds(Int)
  /// `bytes / seconds / 10⁶`; higher is better.
  case megabytesPerSecond
  /// Resident bytes per object; lower is better.
  case bytesPerObject

  /// The unit printed after the figure.
  package var unit: String {
    switch self {
    case .objectsPerSecond: "objects/s"
    case .queriesPerSecond: "queries/s"
    case .transactionsPerSecond: "transactions/s"
    case .milliseconds: "ms"
    case .microseconds: "µs"
    case .nanoseconds: "ns"
    case .megabytesPerSecond: "MB/s"
    case .bytesPerObject: "bytes/object"
    }
  }

  /// The figure for a run of `seconds` that produced `tally` (for bytes per object, the tally's
  /// bytes over its count; the seconds do not matter).
  package func value(seconds: Double, tally: Tally) -> Double {
    switch self {
    case .objectsPerSecond: Double(tally.count) / seconds
    case .queriesPerSecond(let queries): Double(queries) / seconds
    case .transactionsPerSecond(let transactions): Double(transactions) / seconds
    case .milliseconds: seconds * 1e3
    case .microseconds: seconds * 1e6
    case .nanoseconds(let operations): seconds * 1e9 / Double(operations)
    case .megabytesPerSecond: Double(tally.bytes ?? 0) / seconds / 1e6
    case .bytesPerObject: Double(tally.bytes ?? 0) / Double(max(tally.count, 1))
    }
  }
}

extension Figure {
  /// What a run's total is divided by for a per-unit figure such as allocations: its objects,
  /// queries, transactions or operations; `nil` for a job timed as a whole.
  package func operations(_ tally: Tally) -> Int? {
    switch self {
    case .objectsPerSecond: tally.count
    case .queriesPerSecond(let queries): queries
    case .transactionsPerSecond(let transactions): transactions
    case .nanoseconds(let operations): operations
    case .milliseconds, .microseconds, .megabytesPerSecond, .bytesPerObject: nil
    }
  }

  /// Whether a larger figure is better, read from a unit as printed.
  package static func higherIsBetter(unit: String) -> Bool {
    unit.hasSuffix("/s")
  }
}
