import Foundation
import Testing

/// One run of a playground executable: its exit status and what it printed.
struct PlaygroundRun {
  var status: Int32
  var stdout: String
  var stderr: String

  /// Runs the built playground `product` with `arguments` in `directory` and waits for it.
  static func run(
    _ product: String, _ arguments: [String] = [], in directory: URL? = nil
  ) throws -> PlaygroundRun {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "playground-run-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let outURL = scratch.appendingPathComponent("stdout")
    let errURL = scratch.appendingPathComponent("stderr")
    try Data().write(to: outURL)
    try Data().write(to: errURL)
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    let process = Process()
    process.executableURL = try executable(product)
    process.arguments = arguments
    process.currentDirectoryURL = directory ?? scratch
    process.standardOutput = out
    process.standardError = err
    try process.run()
    process.waitUntilExit()
    try out.close()
    try err.close()
    return PlaygroundRun(
      status: process.terminationStatus,
      stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
      stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
  }

  /// The built executable of `product`: next to this test binary (the build directory
  /// `swift test` used), else in the package's `.build/debug`.
  static func executable(_ product: String) throws -> URL {
    let packageRoot = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    var directories = [packageRoot.appendingPathComponent(".build/debug")]
    if let testBinary = Bundle.main.executableURL {
      directories.insert(testBinary.deletingLastPathComponent(), at: 0)
    }
    for directory in directories {
      let candidate = directory.appendingPathComponent(product)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    throw PlaygroundTestError(
      "no built \(product) in \(directories.map(\.path)); run `swift build` first")
  }
}

/// A failure of the test harness itself, with a message.
struct PlaygroundTestError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
