/// The answer of one job run: a count and a check that every engine must agree on.
package struct Tally: Equatable, Sendable {
  /// Rows, objects, or the count asked for.
  package var count: Int
  /// The check of benchmark-workloads.md as printed (`nil` when the job defines none).
  package var check: String?
  /// Bytes written or read (W10), not compared across engines.
  package var bytes: Int?
  /// Keys that describe how one run went (save latency percentiles, retries), printed on the
  /// job's line from its median run. They are not part of the answer: runs need not agree on
  /// them, and ``==`` ignores them.
  package var extras: [ResultLine.Field] = []

  /// A tally with no check.
  package init(count: Int, check: String? = nil, bytes: Int? = nil) {
    self.count = count
    self.check = check
    self.bytes = bytes
  }

  /// Whether two runs gave the same answer: count, check and bytes (not ``extras``).
  package static func == (lhs: Tally, rhs: Tally) -> Bool {
    lhs.count == rhs.count && lhs.check == rhs.check && lhs.bytes == rhs.bytes
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
