/// A micro benchmark: an operation timed over many repetitions, reported in nanoseconds each.
package enum MicroJobID: String, CaseIterable, Sendable {
  /// Reading an attribute (`budget`) through an object.
  case read = "M1.read"
  /// Writing an attribute (`budget`) through an object.
  case write = "M1.write"
  /// Finding an object by its identifier (identity map, dictionary, primary key).
  case lookup = "M2.lookup"
  /// Translating and planning (or preparing) the W2 query, without running it.
  case plan = "M3.plan"
  /// Materializing an object from a stored row.
  case materialize = "M4.materialize"
}

/// What an engine does for one micro benchmark.
package enum MicroPlan {
  /// The engine has nothing comparable.
  case skipped(reason: String)
  /// `operations` repetitions per run, with untimed setup and teardown around each run.
  case timedJob(operations: Int, TimedJob)

  /// `operations` repetitions per run, timed by `body`, which returns a check.
  package static func timed(operations: Int, body: @escaping () throws -> Tally) -> MicroPlan {
    .timedJob(operations: operations, TimedJob(body: body))
  }
}
