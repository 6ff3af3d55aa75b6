/// A small terminal emulator for tests: applies the text and the few escape sequences the line
/// editor writes (carriage return, line feed, erase to end of line, cursor left, clear screen)
/// and keeps the lines, so a test can check what a user would see.
struct VirtualScreen {
  /// The lines on the screen, top first.
  private(set) var lines: [[Character]] = [[]]
  private var row = 0
  private var column = 0
  private var pending: [Character] = []

  /// The screen's lines as text, trailing spaces removed.
  var text: [String] {
    lines.map { line in
      var text = String(line)
      while text.last == " " { text.removeLast() }
      return text
    }
  }

  /// The line the cursor is on.
  var currentLine: String { text[row] }

  /// The cursor's column on its line.
  var cursorColumn: Int { column }

  /// Applies `output`.
  mutating func apply(_ output: String) {
    for character in output {
      if !pending.isEmpty || character == "\u{1B}" {
        pending.append(character)
        if let last = pending.last, pending.count > 2, last.isLetter || last == "~" {
          escape(String(pending))
          pending = []
        }
        continue
      }
      switch character {
      case "\r": column = 0
      case "\n", "\r\n":
        if character == "\r\n" { column = 0 }
        row += 1
        if row == lines.count { lines.append([]) }
      default:
        while lines[row].count < column { lines[row].append(" ") }
        if column < lines[row].count {
          lines[row][column] = character
        } else {
          lines[row].append(character)
        }
        column += 1
      }
    }
  }

  private mutating func escape(_ sequence: String) {
    let body = sequence.dropFirst(2)
    switch body.last {
    case "K":
      if column < lines[row].count { lines[row].removeSubrange(column...) }
    case "D":
      column = max(0, column - (Int(body.dropLast()) ?? 1))
    case "C":
      column += Int(body.dropLast()) ?? 1
    case "J":
      lines = [[]]
      row = 0
      column = 0
    default:
      break
    }
  }
}
