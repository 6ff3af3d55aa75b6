import Foundation
import Testing

@testable import ModelGraphScript

/// Nothing is lost silently: leaving, snapshots and the words that look like dot-commands.
@Suite("Unsaved changes")
struct UnsavedChangesTests {
  /// An engine that asks before discarding, as the REPL's does, with its warnings collected.
  private final class Asking {
    var warnings: [String] = []
    let engine = ScriptEngine(output: { _ in })

    init() {
      engine.asksBeforeDiscarding = true
      engine.warningHandler = { [unowned self] message, _ in warnings.append(message) }
    }

    func run(_ source: String) {
      var parser = Parser(source: source)
      while let statement = try? parser.nextStatement() { try? engine.execute(statement) }
    }
  }

  @Test("in the REPL, .quit with unsaved changes warns once and leaves when repeated")
  func quitTwice() {
    let session = Asking()
    session.run("entity N { v: Int }\ninsert N { v: 1 }\ninsert N { v: 2 }\n.quit")
    #expect(!session.engine.shouldQuit)
    #expect(
      session.warnings == [
        "unsaved changes (2 inserted objects); save, or rollback, or .quit (Ctrl-D) again to"
          + " discard them"
      ])
    // Another statement in between: the next .quit asks again.
    session.run("count N\n.quit")
    #expect(!session.engine.shouldQuit)
    #expect(session.warnings.count == 2)
    session.run(".exit")
    #expect(session.engine.shouldQuit)
  }

  @Test("with everything saved, .quit leaves at once; the summary counts each kind of change")
  func savedQuits() {
    let session = Asking()
    session.run("entity N { v: Int }\ninsert N { v: 1 }\ninsert N { v: 2 }\nsave")
    #expect(session.engine.unsavedChangesSummary == nil)
    session.run("update N set v = 3 where v == 1\ndelete N where v == 2\ninsert N { v: 4 }")
    #expect(
      session.engine.unsavedChangesSummary == "1 inserted, 1 updated and 1 deleted objects")
    session.run("rollback\n.quit")
    #expect(session.engine.shouldQuit)
    #expect(session.warnings.isEmpty)
  }

  @Test("a snapshot with unsaved changes says it left them out")
  func snapshotWarns() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-unsaved-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("copy.mgs").path
    let result = InProcess.run(
      "entity N { v: Int }\ninsert N { v: 1 }\nsave\ninsert N { v: 2 }\nsnapshot \"\(file)\"\n"
        + "rollback\nsnapshot \"\(file)\"",
      path: "s")
    #expect(
      result.stderr
        == "s:5:1: warning: \(file) holds the saved state only, without the unsaved changes (1"
        + " inserted object); save first to include them\nsnapshot \"\(file)\"\n^\n")
    #expect(result.exit == 0)
  }

  @Test("help, quit and exit alone work as dot-commands; with more after them, a pointer")
  func bareWords() {
    let help = InProcess.run("help", path: "h")
    #expect(help.stdout.hasPrefix("Statements"))
    let quit = InProcess.run("quit\ncount X", path: "q")
    #expect(quit == ScriptResult(stdout: "", stderr: "", exit: 0))
    let wrong = InProcess.run("exit now", path: "e")
    #expect(wrong.stderr.hasPrefix("e:1:1: error: 'exit' is the dot-command .exit; write .exit"))
  }
}
