/// Runs scripts on an engine: statement by statement, diagnostics to ``errorOutput``.
public struct ScriptRunner {
  /// The engine statements run on.
  public let engine: ScriptEngine
  /// Where diagnostics are written (standard error by default).
  public var errorOutput: (String) -> Void
  /// Whether a failed statement lets the script go on (`--keep-going`).
  public var keepGoing: Bool

  /// A runner over `engine`.
  public init(
    engine: ScriptEngine, keepGoing: Bool = false, errorOutput: @escaping (String) -> Void
  ) {
    self.engine = engine
    self.keepGoing = keepGoing
    self.errorOutput = errorOutput
    engine.scriptReader = { [unowned engine] data, path in
      ScriptRunner(engine: engine, keepGoing: keepGoing, errorOutput: errorOutput).run(
        data, path: path)
    }
  }

  /// Runs `source`, named `path` in diagnostics.
  ///
  /// A failed statement is reported; the script stops there unless ``keepGoing``; an open
  /// transaction is rolled back and nothing unsaved is saved.
  /// - Returns: Whether every statement succeeded.
  @discardableResult
  public func run(_ source: String, path: String) -> Bool {
    let renderer = DiagnosticRenderer(path: path, source: source)
    let errorOutput = errorOutput
    let outerHandler = engine.warningHandler
    engine.warningHandler = { errorOutput(renderer.renderWarning($0, at: $1)) }
    defer { engine.warningHandler = outerHandler }
    var parser = Parser(source: source)
    var succeeded = true
    while !engine.shouldQuit {
      do {
        guard let statement = try parser.nextStatement() else { break }
        if engine.echoes { engine.output(parser.text(of: statement) + "\n") }
        try engine.execute(statement)
      } catch let error as ScriptError {
        succeeded = false
        errorOutput(renderer.render(error))
        if engine.abortTransaction() {
          errorOutput("\(path): note: the open transaction was rolled back\n")
        }
        guard keepGoing else { return false }
        parser.skipStatement()
      } catch {
        succeeded = false
        errorOutput("\(path): error: \(error)\n")
        guard keepGoing else { return false }
        parser.skipStatement()
      }
    }
    do {
      try engine.finish()
    } catch let error as ScriptError {
      errorOutput(renderer.render(error))
      return false
    } catch {
      errorOutput("\(path): error: \(error)\n")
      return false
    }
    return succeeded
  }

  /// Reports a script's end with unsaved changes to an open file (see
  /// ``ScriptEngine/unsavedChangesAtEnd``).
  ///
  /// - Returns: Whether the session ended with nothing unsaved to lose.
  public func checkNothingUnsaved() -> Bool {
    guard let message = engine.unsavedChangesAtEnd else { return true }
    errorOutput("modelgraph: error: \(message)\n")
    return false
  }
}
