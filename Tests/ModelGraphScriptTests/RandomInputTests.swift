import Foundation
import ModelGraphScript
import Testing

/// Random and damaged scripts never crash or hang the runner: every run ends in success or in
/// diagnostics of the form `path:line:column: error: message` (with the line and a caret).
///
/// Seeded, so a failure repeats. `MODELGRAPH_RANDOM_ITERATIONS` sets the runs per test (default
/// 60), `MODELGRAPH_RANDOM_SEED` the seed, and `MODELGRAPH_RANDOM_LOG` a path: `PATH.TEST` holds
/// the script each test is running, to find the input behind a crash.
@Suite("Random input")
struct RandomInputTests {
  static let environment = ProcessInfo.processInfo.environment
  static let iterations = environment["MODELGRAPH_RANDOM_ITERATIONS"].flatMap { Int($0) } ?? 60
  static let seed = environment["MODELGRAPH_RANDOM_SEED"].flatMap { UInt64($0) } ?? 20_261_129
  static let path = "random.mgscript"

  /// The scripts the mutations start from: the golden scripts and the playground scripts.
  static let originals: [String] = {
    let playgrounds = GoldenCase.all(
      in: GoldenCase.packageRoot.appendingPathComponent("Playgrounds/Scripts"))
    return (GoldenCase.all() + playgrounds).map(\.script).filter { !$0.isEmpty }
  }()

  @Test("token soup from the language's vocabulary")
  func tokenSoup() {
    var scripts = RandomScripts(seed: Self.seed)
    for _ in 0..<Self.iterations { Self.check(scripts.tokenSoup(), keepGoing: scripts.chance(50)) }
  }

  @Test("statements with random expressions and conditions")
  func statements() {
    var scripts = RandomScripts(seed: Self.seed &+ 1)
    for _ in 0..<Self.iterations { Self.check(scripts.statements(), keepGoing: scripts.chance(70)) }
  }

  @Test("damaged copies of the golden and playground scripts")
  func mutations() throws {
    try #require(Self.originals.count >= 10)
    var scripts = RandomScripts(seed: Self.seed &+ 2)
    for _ in 0..<Self.iterations {
      let original = scripts.pick(Self.originals)
      Self.check(scripts.mutate(original), keepGoing: scripts.chance(50))
    }
  }

  @Test("deep nesting is a clear error, not a stack overflow")
  func deepNesting() {
    let deep = [
      String(repeating: "(", count: 100_000) + "1" + String(repeating: ")", count: 100_000),
      String(repeating: "NOT ", count: 100_000) + "true",
      String(repeating: "- ", count: 100_000) + "1",
      String(repeating: "1 + ", count: 100_000) + "1",
      "name" + String(repeating: ".name", count: 100_000),
      String(repeating: "[", count: 100_000),
    ]
    for text in deep {
      let source = RandomScripts.prelude + "fetch Trip where \(text)\n"
      let result = InProcess.run(source, path: Self.path)
      #expect(result.exit == 1)
      #expect(result.stderr.contains("nest"), "\(result.stderr.prefix(300))")
      Self.checkDiagnostics(result, source: source)
    }
  }

  /// The dot-commands that create, lock or read a file by name.
  static let fileCommands: Set<String> = ["output", "once", "open", "read", "import"]

  /// Whether `source` names a file to open, load, write or read: a random run of it would
  /// create files where the tests run (`.output a.b.txt`, a mutation of a golden script).
  static func touchesFiles(_ source: String) -> Bool {
    let tokens = Lexer.tokens(of: source)
    return tokens.indices.contains { index in
      let token = tokens[index]
      if token.isKeyword("open") || token.isKeyword("load") || token.isKeyword("snapshot") {
        return true
      }
      guard token.isSymbol("."), index + 1 < tokens.count,
        let name = tokens[index + 1].identifier
      else { return false }
      return fileCommands.contains(name.lowercased())
    }
  }

  @Test("scripts naming a file, dot-commands included, are not run")
  func fileScriptsSkipped() {
    for source in [
      ".output a.b.txt\n", ".once out\n", ".open store.mg\n", ".read more.mgscript\n",
      ".import trips.csv Trip\n", "open \"x.mg\"\n", "fetch Trip\n.OUTPUT a.\n",
    ] {
      #expect(Self.touchesFiles(source), "\(source)")
    }
    for source in ["fetch Trip\n", ".tables\n", ".mode csv\nfetch Trip where name == \"output\"\n"]
    {
      #expect(!Self.touchesFiles(source), "\(source)")
    }
  }

  /// Runs `source` in-process (unless it would touch files) and checks how the run ended.
  static func check(_ source: String, keepGoing: Bool, test: String = #function) {
    guard !touchesFiles(source) else { return }
    if let log = environment["MODELGRAPH_RANDOM_LOG"] {
      try? source.write(
        toFile: "\(log).\(test.prefix { $0 != "(" })", atomically: false, encoding: .utf8)
    }
    let start = ContinuousClock.now
    let result = InProcess.run(source, path: path, keepGoing: keepGoing)
    let elapsed = ContinuousClock.now - start
    #expect(elapsed < .seconds(5), "slow run (\(elapsed)) of:\n\(source.prefix(2000))")
    checkDiagnostics(result, source: source)
  }

  /// A clean run writes nothing to stderr; a failed one writes diagnostics that point into the
  /// source: `path:line:column: error: message`, the line, and a caret under the column.
  static func checkDiagnostics(_ result: ScriptResult, source: String) {
    let context = "script:\n\(source.prefix(2000))\nstderr:\n\(result.stderr.prefix(2000))"
    guard result.exit != 0 else {
      #expect(result.stderr == "", "\(context)")
      return
    }
    #expect(result.exit == 1, "\(context)")
    // Windows line ends count as one, as in the runner.
    let lines = String(source.map { $0 == "\r\n" ? "\n" : $0 }).split(
      separator: "\n", omittingEmptySubsequences: false)
    let diagnostics = result.stderr.split(separator: "\n").filter { $0.hasPrefix("\(path):") }
    #expect(!diagnostics.isEmpty, "\(context)")
    for diagnostic in diagnostics where !diagnostic.hasPrefix("\(path): note: ") {
      let fields = diagnostic.dropFirst(path.count + 1).split(
        separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
      guard fields.count == 3, let line = Int(fields[0]), let column = Int(fields[1]),
        fields[2].hasPrefix(" error: "), fields[2].count > " error: ".count
      else {
        Issue.record("not a diagnostic: \(diagnostic)\n\(context)")
        continue
      }
      #expect(lines.indices.contains(line - 1), "line \(line) is outside the script\n\(context)")
      if lines.indices.contains(line - 1) {
        #expect(
          (1...lines[line - 1].count + 1).contains(column),
          "column \(column) is outside line \(line)\n\(context)")
      }
    }
  }
}
