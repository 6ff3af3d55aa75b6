#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The controlling terminal of standard input: whether there is one, and raw mode.
enum Terminal {
  /// Whether standard input is a terminal.
  static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 }

  /// Runs `body` with the terminal in raw mode (no echo, byte by byte, no signals from keys),
  /// restoring the previous mode afterwards; runs it as it is when raw mode is not available.
  static func withRawMode<T>(_ body: () throws -> T) rethrows -> T {
    var original = termios()
    guard tcgetattr(STDIN_FILENO, &original) == 0 else { return try body() }
    var raw = original
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
    withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
      bytes[Int(VMIN)] = 1
      bytes[Int(VTIME)] = 0
    }
    tcsetattr(STDIN_FILENO, TCSADRAIN, &raw)
    defer { tcsetattr(STDIN_FILENO, TCSADRAIN, &original) }
    return try body()
  }

  /// The width of the terminal on standard output, in columns (80 when it cannot be read).
  static var columns: Int {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
    return Int(size.ws_col)
  }

  /// One byte from standard input, or `nil` at the end or on an error.
  static func readByte() -> UInt8? {
    var byte: UInt8 = 0
    while true {
      let count = read(STDIN_FILENO, &byte, 1)
      if count == 1 { return byte }
      if count < 0, errno == EINTR { continue }
      return nil
    }
  }

  /// Writes `text` to standard output at once.
  static func write(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes {
        systemWrite(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset)
      }
      if written <= 0 { return }
      offset += written
    }
  }
}

/// `write(2)`, named apart from ``Terminal/write(_:)``.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}
