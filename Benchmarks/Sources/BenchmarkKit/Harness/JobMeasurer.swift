/// Runs a job's warm-ups and timed runs and turns them into a ``ResultLine``.
package struct JobMeasurer {
  /// The engine name printed on each line.
  package var engine: String
  /// The longest a single run may take, in seconds.
  package var timeLimit: Double
  /// Stops the process when a run goes on for twice the time limit.
  package var watchdog: Watchdog?
  /// The jobs still to run after the one being measured (for the watchdog's report).
  package var remaining: [String] = []
  /// The calling thread's allocations so far, where the executable counts them: each line
  /// then carries `allocations=`, the median run's allocations per object, query, transaction
  /// or operation (per run for a job timed as a whole).
  package var threadAllocations: (@Sendable () -> Int)?

  /// Creates a measurer for an engine.
  package init(
    engine: String, timeLimit: Double, watchdog: Watchdog? = nil,
    threadAllocations: (@Sendable () -> Int)? = nil
  ) {
    self.engine = engine
    self.timeLimit = timeLimit
    self.watchdog = watchdog
    self.threadAllocations = threadAllocations
  }

  /// Runs `plan` for `job` and returns its line.
  ///
  /// Every run must give the same answer; a job whose runs disagree throws.
  package func measure(_ job: JobID, _ plan: JobPlan) throws -> ResultLine {
    switch plan {
    case .skipped(let reason):
      return ResultLine(job: job.rawValue, engine: engine, skipReason: reason)
    case .timed(let timed):
      let (warmups, runs) = job.runs
      let statistics: RunStatistics
      let tally: Tally
      do {
        (statistics, tally) = try repeatRuns(job.rawValue, warmups: warmups, runs: runs, timed)
      } catch let exceeded as RunDeadline.Exceeded {
        return ResultLine(job: job.rawValue, engine: engine, skipReason: exceeded.description)
      }
      let figure = job.figure.value(seconds: statistics.median, tally: tally)
      var result = line(job.rawValue, figure: figure, unit: job.figure.unit, statistics, tally)
      // Counted on the measuring thread only: jobs that write from other threads have none.
      if job.writerThreads == 1 {
        setAllocations(&result, statistics, per: job.figure.operations(tally))
      }
      return result
    }
  }

  /// Runs a micro benchmark: one warm-up and five timed runs of `operations` each.
  package func measure(_ job: MicroJobID, _ plan: MicroPlan) throws -> ResultLine {
    switch plan {
    case .skipped(let reason):
      return ResultLine(job: job.rawValue, engine: engine, skipReason: reason)
    case .timedJob(let operations, let timed):
      let statistics: RunStatistics
      let tally: Tally
      do {
        (statistics, tally) = try repeatRuns(job.rawValue, warmups: 1, runs: 5, timed)
      } catch let exceeded as RunDeadline.Exceeded {
        return ResultLine(job: job.rawValue, engine: engine, skipReason: exceeded.description)
      }
      let figure = Figure.nanoseconds(operations)
      let value = figure.value(seconds: statistics.median, tally: tally)
      var result = line(job.rawValue, figure: value, unit: figure.unit, statistics, tally)
      result.set("operations", String(operations))
      setAllocations(&result, statistics, per: operations)
      return result
    }
  }

  private func repeatRuns(
    _ name: String, warmups: Int, runs: Int, _ timed: TimedJob
  ) throws -> (RunStatistics, Tally) {
    var seconds: [Double] = []
    var allocations: [Int] = []
    var tallies: [Tally] = []
    var fault: ResultLine.Field?
    var answer: Tally?
    var warmupSeconds = 0.0
    var run = 0
    // Warm-ups stop early once they have taken half the time limit; timed runs are cut so that
    // they fit in the time limit, but at least one always runs.
    while run < warmups && (run == 0 || warmupSeconds < timeLimit / 2) {
      let (elapsed, _, tally) = try once(name, timed)
      try agree(name, run, tally, &answer)
      fault = fault ?? tally.extras.first { $0.key == "fault" }
      warmupSeconds += elapsed
      run += 1
    }
    let perRun = run > 0 ? warmupSeconds / Double(run) : 0
    let affordable = perRun > 0 ? Int(timeLimit / perRun) : runs
    for _ in 0..<max(1, min(runs, affordable)) {
      let (elapsed, allocated, tally) = try once(name, timed)
      try agree(name, run, tally, &answer)
      fault = fault ?? tally.extras.first { $0.key == "fault" }
      seconds.append(elapsed)
      allocations.append(allocated)
      tallies.append(tally)
      run += 1
    }
    // The extra keys come from the median run (the lower middle one for an even count); a
    // fault found in any run, warm-ups included, is kept.
    let median = seconds.indices.sorted { seconds[$0] < seconds[$1] }[(seconds.count - 1) / 2]
    var tally = tallies[median]
    if let fault, tally.extras.allSatisfy({ $0.key != "fault" }) { tally.extras.append(fault) }
    var statistics = RunStatistics(seconds)
    statistics.allocations = allocations[median]
    return (statistics, tally)
  }

  /// Adds `allocations=`: the median run's allocations over `operations` (per run when `nil`).
  private func setAllocations(
    _ line: inout ResultLine, _ statistics: RunStatistics, per operations: Int?
  ) {
    guard threadAllocations != nil, let allocations = statistics.allocations else { return }
    let each = Double(allocations) / Double(max(operations ?? 1, 1))
    line.set("allocations", ResultLine.fixed(each, decimals: 2))
  }

  /// Runs `timed` once: its seconds, the allocations its body made on this thread (0 where
  /// they are not counted), and its tally.
  private func once(_ name: String, _ timed: TimedJob) throws -> (Double, Int, Tally) {
    try timed.setUp()
    watchdog?.arm(job: name, seconds: 2 * timeLimit, remaining: remaining)
    RunDeadline.start(seconds: timeLimit)
    defer {
      RunDeadline.stop()
      watchdog?.disarm()
    }
    let allocationsBefore = threadAllocations?() ?? 0
    var (elapsed, tally) = try Stopwatch.time(timed.body)
    let allocated = (threadAllocations?() ?? 0) - allocationsBefore
    RunDeadline.stop()
    watchdog?.disarm()
    if let verify = timed.verify { tally = try verify(tally) }
    try timed.tearDown()
    return (elapsed, allocated, tally)
  }

  private func agree(_ name: String, _ run: Int, _ tally: Tally, _ answer: inout Tally?) throws {
    if let answer, answer != tally {
      throw BenchmarkError(
        "\(name) \(engine): run \(run) answered count=\(tally.count) "
          + "check=\(tally.check ?? "-"), an earlier run count=\(answer.count) "
          + "check=\(answer.check ?? "-")")
    }
    answer = tally
  }

  /// A measured line with the standard keys, then the tally's extra keys.
  package func line(
    _ job: String, figure: Double, unit: String, _ statistics: RunStatistics, _ tally: Tally
  ) -> ResultLine {
    var fields: [ResultLine.Field] = [
      .init(key: "seconds", value: ResultLine.formatSeconds(statistics.median)),
      .init(key: "min", value: ResultLine.formatSeconds(statistics.minimum)),
      .init(key: "runs", value: String(statistics.runs)),
      .init(key: "count", value: String(tally.count)),
    ]
    if let check = tally.check { fields.append(.init(key: "check", value: check)) }
    if let bytes = tally.bytes { fields.append(.init(key: "bytes", value: String(bytes))) }
    fields += tally.extras
    return ResultLine(job: job, engine: engine, figure: figure, unit: unit, fields: fields)
  }
}
