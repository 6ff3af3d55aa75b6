/// What an engine does for one job: a timed body with untimed setup, or a reason to skip it.
package enum JobPlan {
  /// The engine cannot run the job yet.
  case skipped(reason: String)
  /// The job's timed work.
  case timed(TimedJob)

  /// A timed job with only a body.
  package static func timed(_ body: @escaping () throws -> Tally) -> JobPlan {
    .timed(TimedJob(body: body))
  }
}

/// One job's timed body, bracketed by untimed setup and teardown around every run.
package struct TimedJob {
  /// Runs before every run (warm-up or timed), outside the clock.
  package var setUp: () throws -> Void = {}
  /// The timed work of one run; returns the run's answer.
  package var body: () throws -> Tally
  /// Runs after every run, outside the clock.
  package var tearDown: () throws -> Void = {}
  /// When set, runs after the body, outside the clock, and turns the body's answer into the
  /// run's answer (for answers that cost a scan, such as counting what a load loaded).
  package var verify: ((Tally) throws -> Tally)?

  /// A job with untimed setup and teardown around a timed body.
  package init(
    setUp: @escaping () throws -> Void = {}, body: @escaping () throws -> Tally,
    verify: ((Tally) throws -> Tally)? = nil, tearDown: @escaping () throws -> Void = {}
  ) {
    self.setUp = setUp
    self.body = body
    self.verify = verify
    self.tearDown = tearDown
  }
}
