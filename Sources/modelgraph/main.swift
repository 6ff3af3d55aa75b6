import Foundation
import ModelGraphScript

/// The runner's version, printed by `--version`.
let version = "0.2.0"

let usage = """
  OVERVIEW: modelgraph, the ModelGraph script runner and REPL.

  USAGE: modelgraph [options]                       REPL (script mode when stdin is not a terminal)
         modelgraph [options] FILE.mgs              open (or create) a snapshot file, then REPL
                                                    or stdin script
         modelgraph [options] run SCRIPT.mgscript   run a script
         modelgraph [options] SCRIPT.mgscript       run a script
         modelgraph [options] [FILE.mgs] -c 'statements'

  OPTIONS:
    -c STATEMENTS   Run the statements and exit.
    --keep-going    Go on after a failed statement (the exit code is still 1).
    --read-only     Open FILE.mgs without locking it: the snapshot and journal as of opening;
                    saves are refused.
    --help          Show this help.
    --version       Show the version.

  Exit codes: 0 success, 1 a statement failed (or a script left changes to an open file
  unsaved), 64 bad invocation. Inside: .help.

  ENVIRONMENT:
    MODELGRAPH_HISTORY  The REPL's history file (default ~/.modelgraph_history; empty: none).
  """

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("modelgraph: error: \(message); see --help\n".utf8))
  exit(64)
}

func writeError(_ text: String) {
  FileHandle.standardError.write(Data(text.utf8))
}

var keepGoing = false
var readOnly = false
var commands: [String] = []
var script: String?
var snapshotFile: String?
var arguments = Array(CommandLine.arguments.dropFirst())
while !arguments.isEmpty {
  let argument = arguments.removeFirst()
  switch argument {
  case "--help", "-h":
    print(usage)
    exit(0)
  case "--version":
    print("modelgraph \(version)")
    exit(0)
  case "--keep-going":
    keepGoing = true
  case "--read-only":
    readOnly = true
  case "-c":
    guard !arguments.isEmpty else { fail("-c needs statements") }
    commands.append(arguments.removeFirst())
  case "run":
    guard script == nil, !arguments.isEmpty else { fail("run needs one script path") }
    script = arguments.removeFirst()
  default:
    if argument.hasPrefix("-") { fail("unknown option '\(argument)'") }
    if argument.hasSuffix(".mgs") || argument.hasPrefix("postgresql://")
      || argument.hasPrefix("postgres://")
    {
      guard snapshotFile == nil else { fail("only one snapshot file can be opened") }
      snapshotFile = argument
    } else if argument.hasSuffix(".mgscript") {
      guard script == nil else { fail("only one script can be run") }
      script = argument
    } else {
      fail("'\(argument)' is neither a snapshot file (.mgs) nor a script (.mgscript)")
    }
  }
}
if script != nil, !commands.isEmpty { fail("give a script or -c, not both") }

let engine = ScriptEngine(output: { FileHandle.standardOutput.write(Data($0.utf8)) })
engine.readOnly = readOnly
let runner = ScriptRunner(engine: engine, keepGoing: keepGoing, errorOutput: writeError)

/// Exits: 1 when a statement failed or a script left unsaved changes to an open file.
@MainActor func finish(_ succeeded: Bool, checkUnsaved: Bool = true) -> Never {
  let nothingLost = !checkUnsaved || runner.checkNothingUnsaved()
  exit(succeeded && nothingLost ? 0 : 1)
}

if let snapshotFile {
  // As `sqlite3 new.db`: a missing file is created (by `open`), unless only reading.
  if readOnly, !snapshotFile.contains("://"), !FileManager.default.fileExists(atPath: snapshotFile)
  {
    fail("no snapshot file at \(snapshotFile) to read")
  }
  let escaped = snapshotFile.replacingOccurrences(of: "\\", with: "\\\\")
    .replacingOccurrences(of: "\"", with: "\\\"")
  guard runner.run("open \"\(escaped)\"", path: snapshotFile) else { finish(false) }
}
if let script {
  guard let data = FileManager.default.contents(atPath: script) else {
    fail("cannot read script \(script)")
  }
  finish(runner.run(data, path: script))
}
if !commands.isEmpty {
  var succeeded = true
  for command in commands where !engine.shouldQuit {
    succeeded = runner.run(command, path: "-c") && succeeded
    if !succeeded && !keepGoing { break }
  }
  finish(succeeded)
}
if isatty(STDIN_FILENO) == 1 {
  var repl = REPL(engine: engine, errorOutput: writeError)
  repl.run()
  finish(true, checkUnsaved: false)
}
let input: Data
do {
  input = try FileHandle.standardInput.readToEnd() ?? Data()
} catch {
  writeError("modelgraph: error: cannot read standard input: \(error)\n")
  exit(1)
}
finish(runner.run(input, path: "<stdin>"))
