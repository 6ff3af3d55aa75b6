import Foundation
import Testing

@testable import ModelGraphScript

/// Files, variables, rollback and interrupts: what a session keeps between statements.
// Serialized: two tests raise the process-wide interrupt flag, which the other must not see
// (run in parallel, one test's reset once swallowed the other's interrupt).
@Suite("Session state", .serialized)
struct SessionStateTests {
  @Test("open binds a file that save writes; load and snapshot read and write it")
  func files() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("trips.mgs").path
    let copy = directory.appendingPathComponent("copy.mgs").path
    let first = InProcess.run(
      """
      open "\(file)"
      entity Trip { name: String unique; budget: Double }
      insert Trip { name: "Paris", budget: 10 }
      save
      insert Trip { name: "Unsaved", budget: 1 }
      snapshot "\(copy)"
      open "\(copy)"
      """, path: "first")
    #expect(first.stdout == "")
    #expect(
      first.stderr.contains(
        "first:7:1: error: there are unsaved changes; save or rollback before opening a file"))
    #expect(FileManager.default.fileExists(atPath: file))
    let second = InProcess.run(
      "load \"\(copy)\"\nfetch Trip\ninsert Trip { name: \"Paris\", budget: 2 }\nsave\nsnapshot",
      path: "second")
    #expect(second.stdout.contains("Trip/0.0  Paris    10.0"))
    #expect(!second.stdout.contains("Unsaved"))
    #expect(
      second.stderr.contains(
        "second:4:1: error: save failed, nothing was saved: Trip.name: value \"Paris\" is not unique"
      ))
  }

  @Test("a damaged or missing file is an error, and the session keeps its store")
  func badFiles() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let damaged = directory.appendingPathComponent("damaged.mgs")
    try Data("not a snapshot at all".utf8).write(to: damaged)
    let result = InProcess.run(
      """
      entity N { v: Int }
      insert N { v: 1 }
      save
      load "\(damaged.path)"
      load "\(directory.appendingPathComponent("absent.mgs").path)"
      count N
      """, path: "bad", keepGoing: true)
    #expect(result.stderr.contains("bad:4:1: error: cannot open \(damaged.path): "))
    #expect(result.stderr.contains("bad:5:1: error: no snapshot file at "))
    #expect(result.stdout == "1\n")
  }

  @Test("a variable whose object was rolled back or deleted is reported, not used")
  func staleVariables() {
    let result = InProcess.run(
      """
      entity Trip { name: String; stays: [Stay] inverse trip }
      entity Stay { name: String; trip: Trip? }
      let $t = insert Trip { name: "Paris" }
      rollback
      insert Stay { name: "Hotel", trip: $t }
      update $t set name = "Rome"
      count Stay
      let $u = insert Trip { name: "Oslo" }
      insert Stay { name: "Cabin", trip: $u }
      delete $u
      count Stay where trip == $u
      count Stay where trip == nil
      """, path: "stale", keepGoing: true)
    #expect(
      result.stderr.contains(
        "stale:5:36: error: Trip/0.0 no longer exists (deleted or rolled back)"))
    #expect(
      result.stderr.contains("stale:6:8: error: $t refers to an object that no longer exists"))
    // A deleted object's variable equals no object, not nil (as the engine compares keys).
    #expect(result.stdout == "0\n1 object deleted\n0\n1\n")
  }

  @Test("an interrupt stops the running statement and the session goes on")
  func interrupt() throws {
    var output = ""
    var errors = ""
    let engine = ScriptEngine(output: { output += $0 })
    engine.handlesInterrupts = true
    let runner = ScriptRunner(engine: engine, keepGoing: true, errorOutput: { errors += $0 })
    runner.run(
      "entity N { name: String }\ninsert N { name: \"a\" }\ninsert N { name: \"b\" }\nsave",
      path: "setup")
    engine.onStatementStart = { Interrupt.request() }
    runner.run("fetch N where name LIKE \"*\"", path: "slow")
    #expect(errors == "slow:1:1: error: interrupted\nfetch N where name LIKE \"*\"\n^\n")
    // A condition the engine evaluates alone stops too: each match passes a Ctrl-C check.
    errors = ""
    runner.run("count N where name == \"a\"", path: "engine")
    #expect(errors.hasPrefix("engine:1:1: error: interrupted\n"))
    engine.onStatementStart = nil
    runner.run("count N where name LIKE \"*\"", path: "after")
    #expect(output == "2\n")
  }

  @Test("an interrupt does not reach engines that do not handle them")
  func interruptIgnored() {
    let engine = ScriptEngine(output: { _ in })
    var errors = ""
    let runner = ScriptRunner(engine: engine, errorOutput: { errors += $0 })
    engine.onStatementStart = { Interrupt.request() }
    #expect(
      runner.run("entity N { v: Int }\ninsert N { v: 1 }\ncount N where v + 0 == 1", path: "p"))
    #expect(errors == "")
    Interrupt.reset()
  }

  @Test(".timing prints a duration after each statement; .quit stops the script")
  func timingAndQuit() {
    let result = InProcess.run(
      ".timing on\nentity N { v: Int }\ncount N\n.timing off\n.quit\ncount X", path: "t")
    let lines = result.stdout.split(separator: "\n")
    // .timing on, entity and count are timed; .timing off is not, and count X never runs.
    #expect(lines.count == 4)
    #expect(lines.filter { $0.hasPrefix("time: ") && $0.hasSuffix(" ms") }.count == 3)
    #expect(lines.contains("0"))
    #expect(result.exit == 0)
  }
}
