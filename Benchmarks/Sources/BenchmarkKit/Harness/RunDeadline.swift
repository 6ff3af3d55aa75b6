/// The time limit of the run in progress, checked by engines between the queries of a run.
///
/// A run that passes its deadline stops with ``RunDeadline/Exceeded``, and the job is reported
/// as skipped with the reason, never with a figure for part of the work.
package enum RunDeadline {
  /// Thrown by ``check()`` once the deadline has passed.
  package struct Exceeded: Error, CustomStringConvertible {
    /// The limit, in seconds.
    package var limit: Double
    /// How many checks passed before the deadline (queries done, for per-query checks).
    package var progress: Int

    /// `one run took longer than … s (… queries done)`.
    package var description: String {
      "one run took longer than the \(ResultLine.fixed(limit, decimals: 0)) s time limit "
        + "(\(progress) queries done; raise it with --time-limit)"
    }
  }

  // nonisolated(unsafe): a child process measures on its main thread only; nothing else reads
  // or writes these.
  nonisolated(unsafe) private static var deadline = UInt64.max
  nonisolated(unsafe) private static var limit = 0.0
  nonisolated(unsafe) private static var checks = 0

  /// Starts a run that may last `seconds`.
  package static func start(seconds: Double) {
    limit = seconds
    checks = 0
    deadline = Stopwatch.now() &+ UInt64(seconds * 1e9)
  }

  /// Ends the run in progress: checks pass again.
  package static func stop() {
    deadline = UInt64.max
  }

  /// Throws ``Exceeded`` once the run in progress has passed its deadline.
  @inline(__always)
  package static func check() throws(Exceeded) {
    checks += 1
    if Stopwatch.now() > deadline { throw Exceeded(limit: limit, progress: checks - 1) }
  }
}
