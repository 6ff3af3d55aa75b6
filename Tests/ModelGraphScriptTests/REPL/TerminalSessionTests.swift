import Foundation
import Testing

/// The REPL on a pseudo-terminal, typed key by key, checked on the screen a user sees.
@Suite(
  "The REPL on a terminal",
  .enabled(if: Executable.url != nil, "modelgraph is not built; run swift build --build-tests"),
  .enabled(if: PseudoTerminal.isAvailable, "needs Linux pseudo-terminals"))
struct TerminalSessionTests {
  private let prompt = "modelgraph> "

  @Test("completion, Home and End, Ctrl-R, word keys, and history across two sessions")
  func editing() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let history = directory.appendingPathComponent("history").path
    let first = try PseudoTerminal(environment: ["MODELGRAPH_HISTORY": history])
    #expect(first.waitForLine(prompt))
    first.type("entity Trip { name: String; startDate: Date }\r")
    #expect(first.waitForLine(prompt))
    // Tab with several candidates lists them under the line and keeps the line.
    first.type("co\t")
    #expect(
      first.wait {
        $0.text.contains("codable  commit   count") && $0.currentLine == "modelgraph> co"
      })
    first.type("\u{15}")
    #expect(first.waitForLine(prompt))
    // Tab completes the statement, the class and an attribute after `where`.
    first.type("fe\tTr\twhere sta\t")
    #expect(first.waitForLine(prompt + "fetch Trip where startDate"))
    // Home (tmux's \e[1~), a word, End (application mode's \eOF).
    first.type("\u{1B}[1~x\u{1B}OF!")
    #expect(first.waitForLine(prompt + "xfetch Trip where startDate!"))
    // Ctrl-W deletes words; Ctrl-Left (\e[1;5D) moves by one; Ctrl-U clears the line.
    first.type("\u{17}\u{17}\u{1B}[1;5D|")
    #expect(first.waitForLine(prompt + "xfetch |Trip "))
    first.type("\u{05}\u{15}")
    #expect(first.waitForLine(prompt))
    first.type("insert Trip { name: \"Oslo\", startDate: 2026-01-01 }\r")
    #expect(first.waitForLine(prompt))
    first.type("count Trip\r")
    #expect(first.wait { $0.text.contains("1") })
    #expect(first.waitForLine(prompt))
    // Ctrl-R finds the entity line; Ctrl-G gives the empty line back.
    first.type("\u{12}enti")
    #expect(
      first.waitForLine("(reverse-i-search)'enti': entity Trip { name: String; startDate: Date }"))
    first.type("\u{07}")
    #expect(first.waitForLine(prompt))
    // Unsaved changes: Ctrl-D warns, a second one leaves.
    first.type("\u{04}")
    // (Keys typed before the prompt is back would meet the terminal outside raw mode.)
    #expect(
      first.wait { screen in
        screen.text.contains { $0.hasPrefix("warning: unsaved changes (1 inserted object)") }
          && screen.currentLine == "modelgraph>"
      })
    first.type("\u{04}")
    #expect(first.waitForExit() == 0)

    // The second session finds the first one's lines with Up.
    let second = try PseudoTerminal(environment: ["MODELGRAPH_HISTORY": history])
    #expect(second.waitForLine(prompt))
    second.type("\u{1B}[A")
    #expect(second.waitForLine(prompt + "count Trip"))
    second.type("\u{1B}[A\u{1B}[A")
    #expect(second.waitForLine(prompt + "entity Trip { name: String; startDate: Date }"))
    second.type("\u{15}.quit\r")
    #expect(second.waitForExit() == 0)
  }

  @Test("a statement typed over several lines comes back whole with Up (found in a walkthrough)")
  func multiLineHistory() throws {
    let terminal = try PseudoTerminal(environment: ["MODELGRAPH_HISTORY": ""])
    #expect(terminal.waitForLine(prompt))
    terminal.type("entity Trip {\r")
    #expect(terminal.waitForLine("       ...> "))
    terminal.type("  name: String\r}\r")
    #expect(terminal.waitForLine(prompt))
    terminal.type("\u{1B}[A")
    #expect(terminal.waitForLine(prompt + "entity Trip { name: String }"))
    terminal.type("\u{15}.quit\r")
    #expect(terminal.waitForExit() == 0)
  }

  @Test("a bracketed paste of several lines runs them in order; its tabs do not complete")
  func paste() throws {
    let terminal = try PseudoTerminal(environment: ["MODELGRAPH_HISTORY": ""])
    #expect(terminal.waitForLine(prompt))
    terminal.type(
      "\u{1B}[200~entity N { v: Int }\ninsert N { v: 4 }\ninsert N {\tv: 5 }\nsum N.v\n\u{1B}[201~")
    #expect(terminal.wait { $0.text.contains("9") && $0.currentLine == "modelgraph>" })
    terminal.type("save\r")
    #expect(
      terminal.wait {
        $0.text.filter { $0 == "modelgraph> save" }.count == 1 && $0.currentLine == "modelgraph>"
      })
    terminal.type(".quit\r")
    #expect(terminal.waitForExit() == 0)
  }
}
