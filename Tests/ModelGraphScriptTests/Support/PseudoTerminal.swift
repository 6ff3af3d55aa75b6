import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The `modelgraph` executable run on a pseudo-terminal: a test types bytes and reads the
/// screen a user would see.
final class PseudoTerminal {
  private let master: Int32
  private let process = Process()
  /// What the program has shown.
  private(set) var screen = VirtualScreen()
  /// Everything the program wrote, escape sequences included.
  private(set) var transcript = ""

  /// Starts `modelgraph` with `arguments` and `environment` added to the test's.
  init(arguments: [String] = [], environment: [String: String]) throws {
    // posix_openpt and friends are not in the Glibc module: Linux's ioctls do the same.
    master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
    var unlock: Int32 = 0
    var number: UInt32 = 0
    guard master >= 0, ioctl(master, Self.unlockRequest, &unlock) == 0,
      ioctl(master, Self.numberRequest, &number) == 0
    else { throw PseudoTerminalError(message: "no pseudo-terminal") }
    let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
    guard slave >= 0 else { throw PseudoTerminalError(message: "cannot open the pty's slave") }
    let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
    process.executableURL = Executable.url!
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardInput = handle
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    try handle.close()
  }

  /// `TIOCSPTLCK` and `TIOCGPTN` (macros Swift does not import).
  private static let unlockRequest = UInt(0x4004_5431)
  private static let numberRequest = UInt(0x8004_5430)

  /// Whether pseudo-terminals can be opened here.
  static var isAvailable: Bool {
    #if os(Linux)
      FileManager.default.fileExists(atPath: "/dev/ptmx")
    #else
      false
    #endif
  }

  deinit {
    if process.isRunning { process.terminate() }
    close(master)
  }

  /// Sends `text` as typed keys.
  func type(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
  }

  /// Reads output until `condition` holds on the screen, or for at most `seconds`.
  ///
  /// - Returns: Whether the condition held.
  @discardableResult
  func wait(seconds: Double = 10, until condition: (VirtualScreen) -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition(screen) {
      let left = deadline.timeIntervalSinceNow
      guard left > 0 else { return false }
      var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, Int32(min(left, 0.2) * 1000)) >= 0 else { return false }
      guard poller.revents != 0 else { continue }
      var buffer = [UInt8](repeating: 0, count: 4096)
      let count = read(master, &buffer, buffer.count)
      guard count > 0 else { return condition(screen) }
      let text = String(decoding: buffer[..<count], as: UTF8.self)
      transcript += text
      screen.apply(text)
    }
    return true
  }

  /// Waits until the current line is `line`, trailing spaces aside (after a prompt is drawn).
  @discardableResult
  func waitForLine(_ line: String, seconds: Double = 10) -> Bool {
    var expected = line
    while expected.last == " " { expected.removeLast() }
    return wait(seconds: seconds) { $0.currentLine == expected }
  }

  /// Waits for the program to end; its exit status, or `nil` if it does not end in time.
  func waitForExit(seconds: Double = 10) -> Int32? {
    wait(seconds: seconds) { _ in !process.isRunning }
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning, Date() < deadline { usleep(10_000) }
    return process.isRunning ? nil : process.terminationStatus
  }
}

/// A pseudo-terminal that could not be set up.
struct PseudoTerminalError: Error {
  var message: String
}
