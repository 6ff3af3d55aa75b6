/// The command line of `modelgraph-benchmark`.
package struct Options: Sendable {
  /// Trips in the data set.
  package var scale = 100_000
  /// Jobs to run (all by default).
  package var jobs = Set(JobID.allCases)
  /// Engines, in report order; `nil` means every engine available.
  package var engines: [String]?
  /// Where to write the JSON report.
  package var jsonPath: String?
  /// Where to write the SVG chart.
  package var svgPath: String?
  /// Run the jobs at every scale of ``scales``.
  package var scaling = false
  /// The scales of a scaling run.
  package var scales = [10_000, 100_000, 1_000_000]
  /// Run the micro benchmarks instead of the jobs.
  package var micro = false
  /// Run a debug build anyway.
  package var allowDebug = false
  /// The longest one run of a job may take, in seconds; timed runs are cut to fit in it.
  package var timeLimit = 300.0
  /// SQLite layouts to run (both by default; the faster line per job is kept).
  package var sqliteLayouts = SQLiteLayout.allCases
  /// Fail when ModelGraph's W1 makes more heap allocations per object than this.
  package var maxAllocationsPerObject: Double?
  /// Child mode: the engine this process runs (`--child ENGINE`).
  package var child: String?
  /// Child mode: the name the engine's lines carry (`--label NAME`).
  package var label: String?
  /// Print the usage and exit.
  package var help = false
  /// Print the version and exit.
  package var version = false

  /// The version `--version` prints.
  package static let versionText = "modelgraph-benchmark 0.1 (workload: benchmark-workloads.md)"

  /// The usage text.
  package static let usage = """
    usage: modelgraph-benchmark [options]

      --scale N            trips in the data set (default 100000; 6N objects)
      --jobs LIST          jobs to run, e.g. W1,W2,W7 (default: all of W1-W13;
                           W12 runs W12, W12.threads2, W12.threads4; W13 runs W13,
                           W13.threads4; a name ending in ! is that job alone: W12!)
      --engines LIST       engines, e.g. modelgraph,sqlite,arrays (default: all available;
                           modelgraph-jemalloc when modelgraph-benchmark-jemalloc is beside)
      --sqlite-layout L    class, hierarchy or both (default both: the faster line per job)
      --json FILE          write every result, ratio and check as JSON
      --svg FILE           write a bar chart of the ratios (log scale)
      --scaling            run at N = 10k, 100k and 1M and show how each figure grows
      --scales LIST        the scales of --scaling (default 10000,100000,1000000)
      --micro              run the micro benchmarks instead of the jobs
      --time-limit S       the longest one run of a job may take (default 300 s): a slower
                           job is reported as skipped; timed runs are cut to fit in S
      --max-allocations-per-object B
                           fail when ModelGraph's W1 (insert and save) makes more than B
                           heap allocations per object (counted by modelgraph-benchmark)
      --allow-debug        run a debug build anyway (figures are meaningless)
      --version            show the version
      --help               show this text

    Each engine runs in a child process of its own (--child ENGINE, internal).
    Exit status: 0 when every check agrees, 1 on a disagreement or failure, 64 on bad usage.
    """

  /// Options with every default.
  package init() {}

  /// Parses `arguments` (without the executable path).
  ///
  /// - Throws: a usage ``BenchmarkError`` (exit code 64) for anything it does not understand.
  package init(parsing arguments: [String]) throws {
    var remaining = arguments[...]
    func value(_ option: String) throws -> String {
      guard let next = remaining.popFirst(), !next.hasPrefix("--") else {
        throw BenchmarkError.usage("\(option) needs a value")
      }
      return next
    }
    while let argument = remaining.popFirst() {
      switch argument {
      case "--scale": scale = try Self.positive(try value(argument), argument)
      case "--jobs": jobs = try Self.jobs(try value(argument))
      case "--engines": engines = Self.list(try value(argument))
      case "--sqlite-layout": sqliteLayouts = try Self.layouts(try value(argument))
      case "--json": jsonPath = try value(argument)
      case "--svg": svgPath = try value(argument)
      case "--scaling": scaling = true
      case "--scales":
        scales = try Self.list(try value(argument)).map { try Self.positive($0, argument) }
      case "--micro": micro = true
      case "--time-limit": timeLimit = Double(try Self.positive(try value(argument), argument))
      case "--max-allocations-per-object":
        let text = try value(argument)
        guard let bound = Double(text), bound >= 0 else {
          throw BenchmarkError.usage("\(argument) needs a number of allocations, not \(text)")
        }
        maxAllocationsPerObject = bound
      case "--allow-debug": allowDebug = true
      case "--child": child = try value(argument)
      case "--label": label = try value(argument)
      case "--help", "-h": help = true
      case "--version": version = true
      default: throw BenchmarkError.usage("unknown option \(argument)")
      }
    }
  }

  /// The arguments a child gets to run `engine` with these options.
  package func childArguments(engine: String, label: String, layout: SQLiteLayout?, scale: Int)
    -> [String]
  {
    var arguments = ["--child", engine, "--label", label, "--scale", String(scale)]
    arguments += ["--time-limit", String(Int(timeLimit))]
    arguments += [
      // Each job exactly (`W12!`): the groups were expanded here already.
      "--jobs",
      JobID.allCases.filter(jobs.contains).map { $0.rawValue + "!" }
        .joined(separator: ","),
    ]
    if let layout { arguments += ["--sqlite-layout", layout.rawValue] }
    if micro { arguments.append("--micro") }
    if allowDebug { arguments.append("--allow-debug") }
    if let maxAllocationsPerObject {
      arguments += ["--max-allocations-per-object", String(maxAllocationsPerObject)]
    }
    return arguments
  }

  private static func list(_ text: String) -> [String] {
    text.split(separator: ",").map { $0.filter { $0 != " " } }.filter { !$0.isEmpty }
  }

  private static func positive(_ text: String, _ option: String) throws -> Int {
    guard let value = Int(text.filter { $0 != "_" }), value > 0 else {
      throw BenchmarkError.usage("\(option) needs a positive integer, not \(text)")
    }
    return value
  }

  private static func jobs(_ text: String) throws -> Set<JobID> {
    var jobs = Set<JobID>()
    for name in list(text) {
      if name.hasSuffix("!"),
        let exact = JobID.allCases.first(where: {
          $0.rawValue.lowercased() == name.dropLast().lowercased()
        })
      {
        jobs.insert(exact)
        continue
      }
      let matches = JobID.allCases.filter {
        $0.rawValue.lowercased() == name.lowercased() || $0.group.lowercased() == name.lowercased()
      }
      guard !matches.isEmpty else { throw BenchmarkError.usage("unknown job \(name)") }
      jobs.formUnion(matches)
    }
    return jobs
  }

  private static func layouts(_ text: String) throws -> [SQLiteLayout] {
    if text == "both" { return SQLiteLayout.allCases }
    guard let layout = SQLiteLayout(rawValue: text) else {
      throw BenchmarkError.usage("--sqlite-layout is class, hierarchy or both, not \(text)")
    }
    return [layout]
  }
}
