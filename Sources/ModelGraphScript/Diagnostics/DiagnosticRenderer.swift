/// Formats errors as compilers do: `path:line:column: error: message`, the source line, and a
/// caret under the column.
public struct DiagnosticRenderer: Sendable {
  /// The name shown before the position (a script path, `<stdin>`, `<repl>`, `-c`).
  public let path: String
  private let lines: [Substring]

  /// A renderer for the script `source` called `path`.
  public init(path: String, source: String) {
    self.path = path
    self.lines = source.withUnixLineEnds.split(separator: "\n", omittingEmptySubsequences: false)
  }

  /// The three lines of `error` (two when the line is not in the source), newline-terminated.
  public func render(_ error: ScriptError) -> String {
    render(error, severity: "error")
  }

  /// The three lines of a warning at `location`, as ``render(_:)`` formats errors.
  public func renderWarning(_ message: String, at location: SourceLocation) -> String {
    render(ScriptError(message, at: location), severity: "warning")
  }

  private func render(_ error: ScriptError, severity: String) -> String {
    var text =
      "\(path):\(error.location.line):\(error.location.column): \(severity): \(error.message)\n"
    let index = error.location.line - 1
    guard lines.indices.contains(index) else { return text }
    let line = lines[index].replacingTabs()
    text += line + "\n"
    text += String(repeating: " ", count: max(error.location.column - 1, 0)) + "^\n"
    return text
  }
}

extension Substring {
  /// The line with tabs as single spaces, so the caret lines up with the column count.
  fileprivate func replacingTabs() -> String {
    String(map { $0 == "\t" ? " " : $0 })
  }
}
