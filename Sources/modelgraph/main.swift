import Foundation

/// The runner's version, printed by `--version`.
let version = "0.1.0"

let usage = """
  OVERVIEW: modelgraph, the ModelGraph script runner and REPL.

  USAGE: modelgraph [--help] [--version]

  The script language, the REPL and snapshot files arrive with the runner issue; this build
  answers --help and --version only.

  OPTIONS:
    --help      Show this help.
    --version   Show the version.
  """

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "--help", "-h", nil:
  print(usage)
case "--version":
  print("modelgraph \(version)")
case let argument?:
  FileHandle.standardError.write(
    Data("modelgraph: error: unknown argument '\(argument)'; see --help\n".utf8))
  exit(64)
}
