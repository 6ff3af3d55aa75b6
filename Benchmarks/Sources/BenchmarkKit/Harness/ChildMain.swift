import Foundation

/// The child side: one engine, its notes and result lines on standard output.
enum ChildMain {
  static func run(
    engine name: String, options: Options, catalog: EngineCatalog, allocator: Allocator
  ) throws {
    let label = options.label ?? name
    if label.hasSuffix("-jemalloc") != allocator.isJemalloc {
      throw BenchmarkError("\(label) cannot run in an executable linked with \(allocator.name)")
    }
    guard let factory = catalog.factory(name) else {
      throw BenchmarkError.usage("unknown engine \(name)")
    }
    let engine = try factory(options)
    defer { engine.finish() }
    for note in engine.notes { Console.line("# " + note) }
    if allocator.isJemalloc { Console.line("# \(label): allocator \(allocator.detail)") }
    let (seconds, dataSet) = Stopwatch.time { DataSet(scale: options.scale) }
    let parameters = QueryParameters(dataSet: dataSet)
    Console.line(
      "# \(label): data set of \(dataSet.objectCount) objects generated in "
        + "\(ResultLine.fixed(seconds, decimals: 2)) s (untimed)")
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("modelgraph-benchmark-\(getpid())").path
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    var run = ChildRun(
      engine: engine, label: label, dataSet: dataSet, parameters: parameters,
      jobs: options.jobs, scratch: scratch, timeLimit: options.timeLimit, emit: Console.line)
    run.threadAllocations = allocator.threadAllocations
    if label == "modelgraph" { run.allocationBound = options.maxAllocationsPerObject }
    if options.micro { try run.runMicro() } else { try run.run() }
  }
}
