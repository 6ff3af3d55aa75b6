/// Turns the bytes a terminal sends into ``Key``s: control characters, UTF-8 text, the escape
/// sequences of xterm, tmux, screen, rxvt and the Linux console (normal and application
/// cursor mode), Alt as an `ESC` prefix, and bracketed paste.
///
/// A pure state machine: feed it bytes in any chunks; each call returns the keys completed.
struct KeyDecoder {
  private enum State: Equatable {
    case ground
    /// After `ESC`.
    case escape
    /// After `ESC [`, with the parameter and intermediate bytes so far.
    case csi([UInt8])
    /// After `ESC O`.
    case ss3
    /// Inside a UTF-8 character: the bytes so far and how many it has.
    case utf8([UInt8], Int)
    /// Between `ESC [200~` and `ESC [201~`.
    case paste([UInt8])
  }

  private var state = State.ground
  private static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

  /// Whether the decoder is in the middle of a sequence.
  var isPending: Bool { state != .ground }

  /// The keys completed by `bytes`.
  mutating func feed<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> [Key] {
    var keys: [Key] = []
    for byte in bytes {
      if let key = feed(byte) { keys.append(key) }
    }
    return keys
  }

  /// The key completed by `byte`, if any.
  mutating func feed(_ byte: UInt8) -> Key? {
    switch state {
    case .ground:
      return ground(byte)
    case .escape:
      state = .ground
      return escaped(byte)
    case .csi(let parameters):
      guard (0x40...0x7E).contains(byte) else {
        // Parameter and intermediate bytes; anything else aborts the sequence.
        if (0x20...0x3F).contains(byte), parameters.count < 16 {
          state = .csi(parameters + [byte])
        } else {
          state = .ground
        }
        return nil
      }
      state = .ground
      return csi(String(decoding: parameters, as: UTF8.self), final: byte)
    case .ss3:
      state = .ground
      switch byte {
      case UInt8(ascii: "A"): return .up
      case UInt8(ascii: "B"): return .down
      case UInt8(ascii: "C"): return .right
      case UInt8(ascii: "D"): return .left
      case UInt8(ascii: "H"): return .home
      case UInt8(ascii: "F"): return .end
      default: return .ignored
      }
    case .utf8(let bytes, let length):
      guard byte & 0xC0 == 0x80 else {
        // A broken sequence: drop it and read this byte afresh.
        state = .ground
        return ground(byte)
      }
      let all = bytes + [byte]
      guard all.count == length else {
        state = .utf8(all, length)
        return nil
      }
      state = .ground
      return .text(String(decoding: all, as: UTF8.self))
    case .paste(let bytes):
      let all = bytes + [byte]
      if all.count >= Self.pasteEnd.count,
        all.suffix(Self.pasteEnd.count).elementsEqual(Self.pasteEnd)
      {
        state = .ground
        return .paste(String(decoding: all.dropLast(Self.pasteEnd.count), as: UTF8.self))
      }
      state = .paste(all)
      return nil
    }
  }

  private mutating func ground(_ byte: UInt8) -> Key? {
    switch byte {
    case 0x1B:
      state = .escape
      return nil
    case 1: return .home
    case 2: return .left
    case 3: return .interrupt
    case 4: return .endOfInput
    case 5: return .end
    case 6: return .right
    case 7: return .abort
    case 8, 127: return .backspace
    case 9: return .tab
    case 10, 13: return .enter
    case 11: return .killToEnd
    case 12: return .clearScreen
    case 14: return .down
    case 16: return .up
    case 18: return .reverseSearch
    case 20: return .transpose
    case 21: return .killToStart
    case 23: return .deleteWordBackward
    case 25: return .yank
    case 0..<32: return .ignored
    case 0x20..<0x80: return .text(String(UnicodeScalar(byte)))
    case 0xC2..<0xE0:
      state = .utf8([byte], 2)
      return nil
    case 0xE0..<0xF0:
      state = .utf8([byte], 3)
      return nil
    case 0xF0..<0xF5:
      state = .utf8([byte], 4)
      return nil
    default: return .ignored
    }
  }

  /// The key for `ESC` followed by `byte`: a sequence's start, or Alt with a key.
  private mutating func escaped(_ byte: UInt8) -> Key? {
    switch byte {
    case UInt8(ascii: "["):
      state = .csi([])
      return nil
    case UInt8(ascii: "O"):
      state = .ss3
      return nil
    case UInt8(ascii: "b"), UInt8(ascii: "B"): return .wordLeft
    case UInt8(ascii: "f"), UInt8(ascii: "F"): return .wordRight
    case UInt8(ascii: "d"), UInt8(ascii: "D"): return .deleteWordForward
    case 8, 127: return .deleteWordBackward
    case 0x1B:
      state = .escape
      return .ignored
    default: return .ignored
    }
  }

  /// The key for `ESC [ parameters final`.
  private mutating func csi(_ parameters: String, final: UInt8) -> Key? {
    // `1;5` is Ctrl, `1;3` Alt, `1;2` Shift: Ctrl and Alt move by words.
    let fields = parameters.split(separator: ";", omittingEmptySubsequences: false)
    let modifier = fields.count > 1 ? Int(fields[1]) ?? 1 : 1
    let byWord = modifier == 3 || modifier == 5 || modifier == 7
    switch final {
    case UInt8(ascii: "A"): return .up
    case UInt8(ascii: "B"): return .down
    case UInt8(ascii: "C"): return byWord ? .wordRight : .right
    case UInt8(ascii: "D"): return byWord ? .wordLeft : .left
    case UInt8(ascii: "H"): return .home
    case UInt8(ascii: "F"): return .end
    case UInt8(ascii: "~"):
      switch fields.first.flatMap({ Int($0) }) {
      case 1, 7: return .home
      case 4, 8: return .end
      case 3: return .delete
      case 200:
        state = .paste([])
        return nil
      default: return .ignored
      }
    default: return .ignored
    }
  }
}
