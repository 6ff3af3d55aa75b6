import Foundation
import Testing

/// A few runs through the built `modelgraph` executable: invocation forms and exit codes.
/// Skipped when `swift build --build-tests` has not built it.
@Suite(
  "The modelgraph executable",
  .enabled(if: Executable.url != nil, "modelgraph is not built; run swift build --build-tests"))
struct ExecutableTests {
  @Test(
    "a golden script through `run` matches its in-process result",
    arguments: [
      "predicates", "constraint-errors", "stop-at-first-error",
    ])
  func goldenThroughRun(_ name: String) throws {
    let golden = try #require(GoldenCase.all().first { $0.name == name })
    var arguments = ["run", golden.scriptFile]
    if golden.keepGoing { arguments.insert("--keep-going", at: 0) }
    let result = try Executable.run(arguments, in: GoldenCase.goldenDirectory)
    #expect(result.stdout == golden.expectedStdout)
    #expect(result.stderr == golden.expectedStderr)
    #expect(result.exit == golden.expectedExit)
  }

  @Test(
    "golden scripts that read files (.read, .import) run in their directory through `run`",
    arguments: ["import"])
  func goldenWithFiles(_ name: String) throws {
    let directory = GoldenCase.goldenDirectory.appendingPathComponent("Files")
    let golden = try #require(GoldenCase.all(in: directory).first { $0.name == name })
    var arguments = ["run", golden.scriptFile]
    if golden.keepGoing { arguments.insert("--keep-going", at: 0) }
    let result = try Executable.run(arguments, in: directory)
    golden.updateIfAsked(result)
    #expect(result.stdout == golden.expectedStdout)
    #expect(result.stderr == golden.expectedStderr)
    #expect(result.exit == golden.expectedExit)
  }

  @Test("a script that quits with unsaved changes to its open file fails and says what it left")
  func quitWithUnsavedChanges() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-unsaved-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = directory.appendingPathComponent("quit.mgscript")
    try """
    open "notes.mgs"
    entity Note { text: String }
    insert Note { text: "kept" }
    save
    insert Note { text: "lost?" }
    count Note
    .quit
    count Note

    """.write(to: script, atomically: true, encoding: .utf8)
    let result = try Executable.run(["run", "quit.mgscript"], in: directory)
    #expect(result.stdout == "2\n")
    #expect(
      result.stderr
        == "modelgraph: error: the script ended with unsaved changes (1 inserted object) to"
        + " notes.mgs; end it with save, or rollback to drop them\n")
    #expect(result.exit == 1)
    let reopened = try Executable.run(["notes.mgs", "-c", "count Note"], in: directory)
    #expect(reopened == ScriptResult(stdout: "1\n", stderr: "", exit: 0))
  }

  @Test("a script on standard input runs in script mode, with <stdin> in diagnostics")
  func standardInput() throws {
    let result = try Executable.run(
      [], input: "entity N { v: Int }\ninsert N { v: 2 }\ncount N\nfetch N where w > 1\n")
    #expect(result.stdout == "1\n")
    #expect(result.stderr.hasPrefix("<stdin>:4:15: error: N has no attribute or relationship 'w'"))
    #expect(result.exit == 1)
  }

  @Test("-c runs statements; --keep-going goes on but still fails")
  func commandOption() throws {
    let ok = try Executable.run(["-c", "entity N { v: Int }; insert N { v: 5 }; sum N.v"])
    #expect(ok == ScriptResult(stdout: "5\n", stderr: "", exit: 0))
    let failed = try Executable.run([
      "--keep-going", "-c", "entity N { v: Int }; count X; count N",
    ])
    #expect(failed.stdout == "0\n")
    #expect(failed.stderr.contains("-c:1:28: error: unknown class 'X'"))
    #expect(failed.exit == 1)
  }

  @Test(
    "bad invocations exit with 64",
    arguments: [
      ["--frobnicate"], ["run"], ["notes.txt"], ["-c"], ["run", "a.mgscript", "-c", "count X"],
    ])
  func badInvocation(_ arguments: [String]) throws {
    let result = try Executable.run(arguments)
    #expect(result.exit == 64)
    #expect(result.stderr.hasPrefix("modelgraph: error: "))
    #expect(result.stdout == "")
  }

  @Test("--help and --version")
  func helpAndVersion() throws {
    let help = try Executable.run(["--help"])
    #expect(help.exit == 0)
    #expect(help.stdout.contains("USAGE: modelgraph"))
    let version = try Executable.run(["--version"])
    #expect(version.stdout.hasPrefix("modelgraph "))
  }

  @Test("a snapshot file written by one run opens in the next: modelgraph FILE.mgs")
  func snapshotFile() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-exec-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let write = try Executable.run(
      [
        "-c",
        "open \"notes.mgs\"\nentity Note { text: String }\ninsert Note { text: \"kept\" }\nsave",
      ],
      in: directory)
    #expect(write == ScriptResult(stdout: "", stderr: "", exit: 0))
    let read = try Executable.run(["notes.mgs", "-c", "fetch Note"], in: directory)
    #expect(read.stdout.contains("Note/0.0  kept"))
    #expect(read.exit == 0)
    let piped = try Executable.run(["notes.mgs"], input: "count Note\n", in: directory)
    #expect(piped == ScriptResult(stdout: "1\n", stderr: "", exit: 0))
    // As `sqlite3 new.db`: a missing file is created.
    let missing = try Executable.run(["absent.mgs"], in: directory)
    #expect(missing.exit == 0)
    #expect(
      FileManager.default.fileExists(atPath: directory.appendingPathComponent("absent.mgs").path))
  }
}
