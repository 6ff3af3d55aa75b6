/// A store under test: ModelGraph, SQLite in memory or plain Swift arrays.
///
/// The child process owns one engine. It calls ``load(_:)`` to build the store that W11 measures
/// and that every later job reads, then asks ``plan(_:parameters:scratch:)`` for each job.
package protocol BenchmarkEngine: AnyObject {
  /// The engine's name in output lines.
  var name: String { get }

  /// Lines printed once (without the leading `# `) to say how the engine is set up.
  var notes: [String] { get }

  /// Drops the current store, if any (untimed).
  func unload()

  /// Builds a fresh store holding the whole data set, saved, and makes it the current store.
  ///
  /// This is W1's timed work; it returns the objects inserted.
  func load(_ dataSet: DataSet) throws -> Tally

  /// The work of `job` on the current store.
  ///
  /// - Parameters:
  ///   - job: any job but W1 and W11, which the harness runs through ``load(_:)``.
  ///   - parameters: the query parameters.
  ///   - scratch: a directory for files (W10).
  func plan(_ job: JobID, parameters: QueryParameters, scratch: String) -> JobPlan

  /// The micro benchmarks this engine takes part in, run on the current store.
  func microPlans(scratch: String) -> [(MicroJobID, MicroPlan)]

  /// Drops what the engine made outside the process (untimed), once its last job ran.
  func finish()
}

extension BenchmarkEngine {
  /// Nothing to drop: the engine's stores live in the process.
  package func finish() {}
}
