/// The median and minimum of a job's timed runs.
package struct RunStatistics: Sendable {
  /// Median seconds of one run.
  package var median: Double
  /// Fastest run, in seconds.
  package var minimum: Double
  /// Timed runs.
  package var runs: Int
  /// The heap allocations of the median run (the lower middle one for an even count), where
  /// they are counted.
  package var allocations: Int?

  /// The statistics of `seconds` (not empty).
  package init(_ seconds: [Double]) {
    let sorted = seconds.sorted()
    let middle = sorted.count / 2
    median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    minimum = sorted[0]
    runs = sorted.count
  }
}
