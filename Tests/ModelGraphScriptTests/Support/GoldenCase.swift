import Foundation
import ModelGraphScript

/// A golden script: `NAME.mgscript` with its expected `NAME.stdout`, `NAME.stderr` and
/// `NAME.exit` beside it in `Golden/`. A first line `-- options: --keep-going` runs it with
/// `--keep-going`. Setting `MODELGRAPH_UPDATE_GOLDEN=1` rewrites the expected files from the
/// actual output (review the diff before committing).
struct GoldenCase: CustomStringConvertible, Sendable {
  let name: String
  let directory: URL

  var description: String { name }

  static let goldenDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Golden")

  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// Every golden script in `directory`, by name.
  static func all(in directory: URL = goldenDirectory) -> [GoldenCase] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".mgscript") }.sorted().map {
      GoldenCase(name: String($0.dropLast(".mgscript".count)), directory: directory)
    }
  }

  var scriptFile: String { "\(name).mgscript" }
  var script: String { read("mgscript") ?? "" }
  var keepGoing: Bool { script.hasPrefix("-- options: --keep-going") }
  var expectedStdout: String? { read("stdout") }
  var expectedStderr: String? { read("stderr") }
  var expectedExit: Int32? {
    read("exit").flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
  }

  func read(_ ext: String) -> String? {
    try? String(contentsOf: directory.appendingPathComponent("\(name).\(ext)"), encoding: .utf8)
  }

  /// Writes the expected files when `MODELGRAPH_UPDATE_GOLDEN=1`.
  func updateIfAsked(_ result: ScriptResult, into target: URL? = nil, onlyStdout: Bool = false) {
    guard ProcessInfo.processInfo.environment["MODELGRAPH_UPDATE_GOLDEN"] == "1" else { return }
    var files = [("stdout", result.stdout)]
    if !onlyStdout { files += [("stderr", result.stderr), ("exit", "\(result.exit)\n")] }
    for (ext, text) in files {
      try? text.write(
        to: (target ?? directory).appendingPathComponent("\(name).\(ext)"), atomically: true,
        encoding: .utf8)
    }
  }
}

/// What running a script produced.
struct ScriptResult: Equatable {
  var stdout: String
  var stderr: String
  var exit: Int32
}

/// Runs scripts in-process, as `modelgraph run` does (unsaved changes to an open file at the
/// end fail the run).
enum InProcess {
  static func run(_ source: String, path: String, keepGoing: Bool = false) -> ScriptResult {
    var stdout = ""
    var stderr = ""
    let engine = ScriptEngine(output: { stdout += $0 })
    let runner = ScriptRunner(engine: engine, keepGoing: keepGoing, errorOutput: { stderr += $0 })
    let succeeded = runner.run(source, path: path)
    let nothingLost = runner.checkNothingUnsaved()
    return ScriptResult(stdout: stdout, stderr: stderr, exit: succeeded && nothingLost ? 0 : 1)
  }
}
