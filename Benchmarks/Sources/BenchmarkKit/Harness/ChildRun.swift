/// The work of one child process: one engine, all selected jobs, lines on standard output.
package struct ChildRun {
  /// The engine under test.
  package var engine: any BenchmarkEngine
  /// The name its lines carry (`modelgraph-jemalloc` for ModelGraph under jemalloc).
  package var label: String
  /// The data set, generated before anything is measured.
  package var dataSet: DataSet
  /// The query parameters.
  package var parameters: QueryParameters
  /// The jobs to run.
  package var jobs: Set<JobID>
  /// A directory for files.
  package var scratch: String
  /// The longest one run may take, in seconds.
  package var timeLimit: Double
  /// Receives every output line.
  package var emit: (String) -> Void
  /// The calling thread's allocations so far, where the executable counts them.
  package var threadAllocations: (@Sendable () -> Int)?
  /// The most allocations per object W1 may make (`--max-allocations-per-object`): a W1 line
  /// over it, or without an allocation count, fails the run.
  package var allocationBound: Double?

  /// A run of `jobs` on `engine`.
  package init(
    engine: any BenchmarkEngine, label: String, dataSet: DataSet, parameters: QueryParameters,
    jobs: Set<JobID>, scratch: String, timeLimit: Double, emit: @escaping (String) -> Void
  ) {
    self.timeLimit = timeLimit
    self.engine = engine
    self.label = label
    self.dataSet = dataSet
    self.parameters = parameters
    self.jobs = jobs
    self.scratch = scratch
    self.emit = emit
  }

  /// Builds the store (W11 measures it; it is W1's warm-up), then runs the jobs in
  /// ``JobID/executionOrder``.
  ///
  /// A job that throws prints `skipped reason=error: …` and makes the run throw at the end; so
  /// does a line with a `fault=` key (a run that found its own work wrong, such as updates
  /// lost), after it is printed with its figures.
  package func run() throws {
    var measurer = JobMeasurer(
      engine: label, timeLimit: timeLimit, watchdog: Watchdog(engine: label),
      threadAllocations: threadAllocations)
    ResidentMemory.releaseFreedMemory()
    let before = ResidentMemory.bytes()
    let heapBefore = ResidentMemory.heapBytesInUse()
    let loaded = try engine.load(dataSet)
    ResidentMemory.releaseFreedMemory()
    let after = ResidentMemory.bytes()
    let heapAfter = ResidentMemory.heapBytesInUse()
    var failures: [String] = []
    let order = JobID.executionOrder.filter(jobs.contains)
    for (index, job) in order.enumerated() {
      measurer.remaining = order[(index + 1)...].map(\.rawValue)
      do {
        switch job {
        case .w11:
          let heap = heapBefore.flatMap { before in heapAfter.map { $0 - before } }
          emit(memoryLine(before: before, after: after, heap: heap, objects: loaded.count).text)
        case .w1:
          let line = try measureInsert(measurer)
          emit(line.text)
          if let excess = allocationExcess(line) { failures.append("W1: \(excess)") }
        default:
          let plan = engine.plan(job, parameters: parameters, scratch: scratch)
          let line = try measurer.measure(job, plan)
          emit(line.text)
          if let fault = line["fault"] { failures.append("\(job.rawValue): \(fault)") }
        }
      } catch {
        failures.append("\(job.rawValue): \(error)")
        emit(ResultLine(job: job.rawValue, engine: label, skipReason: "error: \(error)").text)
      }
    }
    if !failures.isEmpty {
      throw BenchmarkError("\(label) failed: " + failures.joined(separator: "; "))
    }
  }

  /// Runs the micro benchmarks on the loaded store.
  package func runMicro() throws {
    var measurer = JobMeasurer(
      engine: label, timeLimit: timeLimit, watchdog: Watchdog(engine: label),
      threadAllocations: threadAllocations)
    _ = try engine.load(dataSet)
    let plans = engine.microPlans(scratch: scratch)
    for (index, (job, plan)) in plans.enumerated() {
      measurer.remaining = plans[(index + 1)...].map(\.0.rawValue)
      emit(try measurer.measure(job, plan).text)
    }
  }

  /// Why a W1 line breaks ``allocationBound``, or `nil` when it keeps it (or there is none).
  private func allocationExcess(_ line: ResultLine) -> String? {
    guard let bound = allocationBound, !line.isSkipped else { return nil }
    guard let text = line["allocations"], let perObject = Double(text) else {
      return "no allocation count to check against the bound of \(bound) per object "
        + "(run modelgraph-benchmark, which counts them)"
    }
    guard perObject > bound else { return nil }
    return "\(text) allocations per object, over the bound of \(bound)"
  }

  private func measureInsert(_ measurer: JobMeasurer) throws -> ResultLine {
    let store = dataSet
    let timed = TimedJob(
      setUp: { [engine] in engine.unload() }, body: { [engine] in try engine.load(store) })
    return try measurer.measure(.w1, .timed(timed))
  }

  /// The W11 line: resident bytes per object, with `heap=` (allocator bytes in use per object,
  /// where the allocator reports them) beside it.
  private func memoryLine(before: Int?, after: Int?, heap: Int?, objects: Int) -> ResultLine {
    guard let before, let after, objects > 0 else {
      return ResultLine(job: "W11", engine: label, skipReason: "no /proc/self/statm")
    }
    let delta = after - before
    return ResultLine(
      job: "W11", engine: label,
      figure: Figure.bytesPerObject.value(
        seconds: 0, tally: Tally(count: objects, bytes: delta)),
      unit: Figure.bytesPerObject.unit,
      fields: [
        .init(key: "count", value: String(objects)), .init(key: "bytes", value: String(delta)),
      ]
        + (heap.map {
          [.init(key: "heap", value: String(format: "%.1f", Double($0) / Double(objects)))]
        } ?? []))
  }
}
