import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The interactive loop: reads statements (continuing lines while braces or parentheses are
/// open), runs them, reports errors and goes on. Ctrl-C cancels the line being typed, or
/// interrupts a running statement without losing the session. `.quit` or Ctrl-D with unsaved
/// changes warns and leaves only when repeated.
public struct REPL {
  private let runner: ScriptRunner
  private var editor: LineEditor
  private var number = 0

  /// A REPL over `engine`, with diagnostics to `errorOutput`, keeping its history in
  /// `~/.modelgraph_history` (`$MODELGRAPH_HISTORY` names another file; empty keeps none).
  public init(engine: ScriptEngine, errorOutput: @escaping (String) -> Void) {
    engine.handlesInterrupts = true
    engine.asksBeforeDiscarding = true
    engine.warningHandler = { message, _ in errorOutput("warning: \(message)\n") }
    runner = ScriptRunner(engine: engine, keepGoing: true, errorOutput: errorOutput)
    editor = LineEditor(historyFile: History.defaultFile())
  }

  /// Reads and runs statements until `.quit` or the end of input.
  public mutating func run() {
    installInterruptHandler()
    Terminal.write("modelgraph — .help for help, .quit to leave, Tab completes\n")
    var pendingLines: [String] = []
    while !runner.engine.shouldQuit {
      let prompt = pendingLines.isEmpty ? "modelgraph> " : "       ...> "
      switch editor.readLine(prompt: prompt, completer: runner.engine.completer) {
      case .end:
        if runner.engine.mayQuit() { return }
      case .cancelled:
        pendingLines = []
      case .line(let line):
        pendingLines.append(line)
        let source = pendingLines.joined(separator: "\n")
        guard Self.isComplete(source) else { continue }
        for entry in Self.historyEntries(pendingLines) { editor.remember(entry) }
        pendingLines = []
        number += 1
        runner.run(source, path: "<repl:\(number)>")
      }
    }
  }

  /// What the history keeps of a statement typed on `lines`: one entry, the lines joined by
  /// spaces, so that Up recalls the whole statement (as sqlite3 does); the lines one by one
  /// when joining would change the statement (a `--` comment would swallow what follows).
  static func historyEntries(_ lines: [String]) -> [String] {
    guard lines.count > 1 else { return lines }
    let joined = lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
      .joined(separator: " ")
    let kinds = { (text: String) in
      Lexer.tokens(of: text).map(\.kind).filter { $0 != .newline }
    }
    return kinds(joined) == kinds(lines.joined(separator: "\n")) ? [joined] : lines
  }

  /// Whether `source` closes every brace, bracket and parenthesis it opens (strings and
  /// comments aside).
  static func isComplete(_ source: String) -> Bool {
    var depth = 0
    for token in Lexer.tokens(of: source) {
      switch token.kind {
      case .symbol("{"), .symbol("("), .symbol("["): depth += 1
      case .symbol("}"), .symbol(")"), .symbol("]"): depth -= 1
      default: break
      }
    }
    return depth <= 0
  }
}

/// Ctrl-C while a statement runs (the terminal is not in raw mode then) raises SIGINT; the
/// handler only sets the flag the runner's loops check.
private func installInterruptHandler() {
  signal(SIGINT) { _ in Interrupt.request() }
}
