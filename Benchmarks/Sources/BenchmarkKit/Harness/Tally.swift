/// The answer of one job run: a count and a check that every engine must agree on.
package struct Tally: Equatable, Sendable {
  /// Rows, objects, or the count asked for.
  package var count: Int
  /// The check of benchmark-workloads.md as printed (`nil` when the job defines none).
  package var check: String?
  /// Bytes written or read (W10), not compared across engines.
  package var bytes: Int?

  /// A tally with no check.
  package init(count: Int, check: String? = nil, bytes: Int? = nil) {
    self.count = count
    self.check = check
    self.bytes = bytes
  }

  /// A tally whose check is a wrapping sum of start dates.
  package init(count: Int, checksum: Int64) {
    self.init(count: count, check: String(checksum))
  }
}

/// Accumulates the workload's check: the wrapping `Int64` sum of start dates, and a row count.
package struct StartDateChecksum {
  /// Rows seen.
  package var count = 0
  /// Wrapping sum of start-date seconds.
  package var sum: Int64 = 0

  /// Creates an empty checksum.
  package init() {}

  /// Adds one returned object's start date.
  @inline(__always)
  package mutating func add(_ startDate: Int64) {
    count += 1
    sum &+= startDate
  }

  /// The tally of everything added.
  package var tally: Tally { Tally(count: count, checksum: sum) }
}
