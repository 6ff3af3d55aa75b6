import Foundation

/// The REPL's line editor on a raw-mode terminal: the keys of readline's emacs mode (see
/// ``Key``), history through ``History``, Tab completion through a ``Completer``, reverse
/// search with Ctrl-R, bracketed paste. The behaviour is ``LineEditState``'s; this type reads
/// bytes, decodes them with ``KeyDecoder`` and draws the line.
struct LineEditor {
  /// What reading a line ended with.
  enum Result: Equatable {
    /// A line (without its newline).
    case line(String)
    /// Ctrl-C: the line was cancelled.
    case cancelled
    /// Ctrl-D on an empty line, or the end of input.
    case end
  }

  /// Earlier lines, and the file that keeps them.
  private(set) var history: History
  /// Lines a multi-line paste brought, read before the terminal is read again.
  private var queuedLines: [String] = []
  /// The part of a paste after its last line break: the start of the next line.
  private var queuedText = ""
  private var decoder = KeyDecoder()

  /// An editor whose history lives in `historyFile` (or only in memory).
  init(historyFile: URL? = nil) {
    history = History(file: historyFile)
  }

  /// Reads a line after printing `prompt`, completing words with `completer`.
  mutating func readLine(prompt: String, completer: Completer) -> Result {
    if !queuedLines.isEmpty {
      let line = queuedLines.removeFirst()
      Terminal.write(prompt + line + "\r\n")
      return .line(line)
    }
    Terminal.write("\u{1B}[?2004h")
    defer { Terminal.write("\u{1B}[?2004l") }
    return Terminal.withRawMode { edit(prompt: prompt, completer: completer) }
  }

  /// Adds `line` to the history.
  mutating func remember(_ line: String) {
    history.remember(line)
  }

  private mutating func edit(prompt: String, completer: Completer) -> Result {
    var state = LineEditState(
      history: history.entries, text: queuedText, complete: completer.complete)
    queuedText = ""
    func redraw() {
      let (text, cursor) = state.display(prompt: prompt, width: Terminal.columns)
      let back = text.count - cursor
      Terminal.write("\r" + text + "\u{1B}[K" + (back > 0 ? "\u{1B}[\(back)D" : ""))
    }
    redraw()
    while let byte = Terminal.readByte() {
      guard let key = decoder.feed(byte) else { continue }
      switch state.handle(key) {
      case .editing:
        break
      case .submit(let line):
        Terminal.write("\r" + prompt + line + "\u{1B}[K\r\n")
        while let queued = state.takeQueuedLine() { queuedLines.append(queued) }
        queuedText = state.buffer.text
        return .line(line)
      case .cancel:
        Terminal.write("^C\r\n")
        return .cancelled
      case .end:
        Terminal.write("\r\n")
        return .end
      case .clearScreen:
        Terminal.write("\u{1B}[H\u{1B}[2J")
      case .list(let candidates):
        Terminal.write("\r\n" + Self.columns(candidates) + "\r\n")
      }
      redraw()
    }
    return .end
  }

  /// Candidates in rows, as wide as an 80-column terminal allows.
  static func columns(_ words: [String]) -> String {
    let width = (words.map(\.count).max() ?? 0) + 2
    let perRow = max(1, 80 / width)
    var rows: [String] = []
    var index = 0
    while index < words.count {
      let row = words[index..<min(index + perRow, words.count)]
      rows.append(
        row.map { $0 + String(repeating: " ", count: width - $0.count) }.joined()
          .trimmingSpaces())
      index += perRow
    }
    return rows.joined(separator: "\r\n")
  }
}
