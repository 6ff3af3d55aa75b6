/// A minimal line editor over a raw-mode terminal: left/right, home/end (Ctrl-A/Ctrl-E),
/// backspace, Ctrl-U (clear), Ctrl-K (kill to end), up/down through history, Ctrl-C to
/// cancel the line, Ctrl-D at an empty line for end of input.
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

  /// Earlier lines, oldest first.
  private(set) var history: [String] = []

  /// Reads a line after printing `prompt`.
  mutating func readLine(prompt: String) -> Result {
    Terminal.withRawMode { edit(prompt: prompt) }
  }

  /// Adds `line` to the history (not blank lines nor repeats).
  mutating func remember(_ line: String) {
    guard !line.allSatisfy(\.isWhitespace), history.last != line else { return }
    history.append(line)
  }

  private func edit(prompt: String) -> Result {
    var buffer: [Character] = []
    var cursor = 0
    var historyIndex = history.count
    var draft: [Character] = []
    var pending: [UInt8] = []
    func redraw() {
      let tail = buffer.count - cursor
      Terminal.write(
        "\r\u{1B}[K" + prompt + String(buffer) + (tail > 0 ? "\u{1B}[\(tail)D" : ""))
    }
    redraw()
    while let byte = Terminal.readByte() {
      switch byte {
      case 13, 10:
        Terminal.write("\r\n")
        return .line(String(buffer))
      case 3:
        Terminal.write("^C\r\n")
        return .cancelled
      case 4:
        if buffer.isEmpty {
          Terminal.write("\r\n")
          return .end
        }
        if cursor < buffer.count { buffer.remove(at: cursor) }
      case 127, 8:
        if cursor > 0 {
          buffer.remove(at: cursor - 1)
          cursor -= 1
        }
      case 1: cursor = 0
      case 5: cursor = buffer.count
      case 11: buffer.removeSubrange(cursor...)
      case 21:
        buffer.removeSubrange(..<cursor)
        cursor = 0
      case 27:
        guard Terminal.readByte() == UInt8(ascii: "["), let code = Terminal.readByte() else {
          continue
        }
        switch code {
        case UInt8(ascii: "A"), UInt8(ascii: "B"):
          let up = code == UInt8(ascii: "A")
          if historyIndex == history.count { draft = buffer }
          let next = up ? historyIndex - 1 : historyIndex + 1
          guard next >= 0, next <= history.count else { continue }
          historyIndex = next
          buffer = next == history.count ? draft : Array(history[next])
          cursor = buffer.count
        case UInt8(ascii: "C"): cursor = min(cursor + 1, buffer.count)
        case UInt8(ascii: "D"): cursor = max(cursor - 1, 0)
        case UInt8(ascii: "H"): cursor = 0
        case UInt8(ascii: "F"): cursor = buffer.count
        case UInt8(ascii: "3"):
          _ = Terminal.readByte()
          if cursor < buffer.count { buffer.remove(at: cursor) }
        default: break
        }
      default:
        guard byte >= 32 else { continue }
        pending.append(byte)
        // Collect the bytes of one UTF-8 character before inserting it.
        let expected = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
        while pending.count < expected, let more = Terminal.readByte() { pending.append(more) }
        let text = String(decoding: pending, as: UTF8.self)
        pending = []
        for character in text {
          buffer.insert(character, at: cursor)
          cursor += 1
        }
      }
      redraw()
    }
    return .end
  }
}
