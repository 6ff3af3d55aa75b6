import Foundation

/// The `modelgraph-benchmark` command: parses options, then runs as the parent (children per
/// engine, tables, exit status) or as a child (one engine).
package enum BenchmarkCommand {
  /// Runs the command with the process's arguments and exits.
  ///
  /// - Parameters:
  ///   - allocator: the allocator this executable is linked with.
  ///   - catalog: the engines it can run.
  package static func main(allocator: Allocator, catalog: EngineCatalog) -> Never {
    do {
      let options = try Options(parsing: Array(CommandLine.arguments.dropFirst()))
      if options.help || options.version {
        Console.line(options.help ? Options.usage : Options.versionText)
        exit(0)
      }
      if BuildConfiguration.isDebug && !options.allowDebug {
        throw BenchmarkError.usage(
          "this is a debug build; its figures are meaningless. Build with "
            + "`swift build -c release`, or pass --allow-debug to run it anyway")
      }
      if let engine = options.child {
        try ChildMain.run(engine: engine, options: options, catalog: catalog, allocator: allocator)
        exit(0)
      }
      exit(try parent(options, allocator: allocator, catalog: catalog))
    } catch let error as BenchmarkError {
      Console.error("modelgraph-benchmark: \(error.message)")
      exit(error.exitCode)
    } catch {
      Console.error("modelgraph-benchmark: \(error)")
      exit(1)
    }
  }

  private static func parent(_ options: Options, allocator: Allocator, catalog: EngineCatalog)
    throws -> Int32
  {
    let engines = try resolveEngines(options, catalog: catalog)
    let machine = MachineInfo.current()
    if BuildConfiguration.isDebug { Console.line(BuildConfiguration.debugWarning) }
    let scales = options.scaling ? options.scales.sorted() : [options.scale]
    Console.line(
      "# modelgraph-benchmark \(options.micro ? "micro" : "jobs") "
        + "scales=\(scales.map(String.init).joined(separator: ",")) "
        + "engines=\(engines.joined(separator: ",")) "
        + "build=\(BuildConfiguration.isDebug ? "DEBUG" : "release")")
    Console.line("# machine: \(machine.summary)")
    Console.line("# figures are medians of timed runs after a warm-up; read them as ratios")
    let parent = ParentRun(options: options, allocator: allocator)
    var runs: [ScaleRun] = []
    var ok = true
    for scale in scales {
      if scales.count > 1 { Console.line("# --- N = \(scale) ---") }
      let run = parent.run(scale: scale, engines: engines)
      runs.append(run)
      ok = report(run, scaling: scales.count > 1) && ok
    }
    if scales.count > 1 {
      for line in ScalingTable(runs: runs).text { Console.line(line) }
    }
    if let path = options.jsonPath {
      try JSONReport(runs: runs, machine: machine, ok: ok).write(to: path)
      Console.line("# wrote \(path)")
    }
    if let path = options.svgPath, let run = runs.last {
      let table = RatioTable(lines: run.lines, engines: run.engines)
      let title =
        "ModelGraph benchmark, N = \(run.scale) trips (\(6 * run.scale) objects): "
        + "\(table.primary) ÷ peers"
      try SVGChart(table: table, title: title).write(to: path)
      Console.line("# wrote \(path)")
    }
    Console.line(ok ? "RESULT ok" : "RESULT FAILED")
    return ok ? 0 : 1
  }

  /// Prints a scale's ratios, checks and failures; returns whether it passed.
  private static func report(_ run: ScaleRun, scaling: Bool) -> Bool {
    let prefix = scaling ? "# N = \(run.scale)\n" : ""
    Console.line(
      prefix + RatioTable(lines: run.lines, engines: run.engines).text.joined(separator: "\n"))
    for line in WriterScalingTable(lines: run.lines).text { Console.line(line) }
    let checks = CheckTable(lines: run.checkLines)
    for line in checks.text { Console.line(line) }
    for failure in run.failures { Console.line("FAILED \(failure)") }
    return checks.agrees && run.failures.isEmpty
  }

  /// The engines to run: `--engines`, or every engine in the catalog plus
  /// `modelgraph-jemalloc` when the jemalloc executable is beside this one.
  private static func resolveEngines(_ options: Options, catalog: EngineCatalog) throws
    -> [String]
  {
    guard let requested = options.engines else {
      var engines = catalog.names
      if catalog.factory("modelgraph") != nil,
        ChildProcess.sibling("modelgraph-benchmark-jemalloc") != nil
      {
        let index = (engines.firstIndex(of: "modelgraph") ?? -1) + 1
        engines.insert("modelgraph-jemalloc", at: index)
      }
      return engines
    }
    for engine in requested {
      let base = engine.hasSuffix("-jemalloc") ? String(engine.dropLast(9)) : engine
      guard catalog.factory(base) != nil else {
        throw BenchmarkError.usage(
          "unknown engine \(engine); known: "
            + (catalog.names + catalog.names.map { $0 + "-jemalloc" }).joined(separator: ", "))
      }
    }
    return requested
  }
}
