import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Stops a child whose run cannot be interrupted between queries (one long fetch) once it has
/// run twice the time limit: it prints the job as skipped, every job not yet run as skipped, and
/// ends the process with status 0, so a slow engine bounds the run without failing it.
package final class Watchdog: @unchecked Sendable {
  // @unchecked Sendable: every mutable property is read and written under `lock`; the timer
  // thread only reads them.
  private let lock = NSLock()
  private var armed: (job: String, deadline: UInt64, seconds: Double)?
  private var remaining: [String] = []
  private let engine: String

  /// A watchdog for the child of `engine`, its thread started.
  package init(engine: String) {
    self.engine = engine
    let thread = Thread { [self] in watch() }
    thread.name = "watchdog"
    thread.start()
  }

  /// Watches one run of `job`, which may last `seconds`; `remaining` are the jobs after it.
  package func arm(job: String, seconds: Double, remaining: [String]) {
    lock.withLock {
      armed = (job, Stopwatch.now() &+ UInt64(seconds * 1e9), seconds)
      self.remaining = remaining
    }
  }

  /// Stops watching.
  package func disarm() {
    lock.withLock { armed = nil }
  }

  private func watch() {
    while true {
      Thread.sleep(forTimeInterval: 0.5)
      let expired = lock.withLock { () -> (String, Double, [String])? in
        guard let armed, Stopwatch.now() > armed.deadline else { return nil }
        return (armed.job, armed.seconds, remaining)
      }
      guard let (job, seconds, remaining) = expired else { continue }
      let limit = ResultLine.fixed(seconds, decimals: 0)
      Console.line(
        ResultLine(
          job: job, engine: engine,
          skipReason: "one run was still going after \(limit) s (twice the time limit); "
            + "the child was stopped; raise it with --time-limit"
        ).text)
      for other in remaining {
        Console.line(
          ResultLine(
            job: other, engine: engine, skipReason: "not run: the child was stopped in \(job)"
          )
          .text)
      }
      _exit(0)
    }
  }
}
