import Foundation

/// Starts the benchmark executable again as a child and reads its lines as they come.
package enum ChildProcess {
  /// The running executable, to start again as a child: `/proc/self/exe` names the very file
  /// this process runs even if a rebuild has replaced it since.
  package static var currentExecutable: String {
    FileManager.default.fileExists(atPath: "/proc/self/exe")
      ? "/proc/self/exe" : CommandLine.arguments[0]
  }

  /// The directory the running executable was started from.
  static var currentDirectory: String {
    var path =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    if path.hasSuffix(" (deleted)") { path.removeLast(" (deleted)".count) }
    return (path as NSString).deletingLastPathComponent
  }

  /// The executable named `name` beside the running one, if it exists.
  package static func sibling(_ name: String) -> String? {
    let directory = currentDirectory
    let path = (directory as NSString).appendingPathComponent(name)
    return FileManager.default.isExecutableFile(atPath: path) ? path : nil
  }

  /// Runs `executable` with `arguments`, calling `onLine` for every line of its standard output
  /// (its standard error passes through), and returns its exit status.
  package static func run(
    _ executable: String, _ arguments: [String], onLine: (Substring) -> Void
  ) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let reader = pipe.fileHandleForReading
    var pending = Data()
    while true {
      let chunk = reader.availableData
      if chunk.isEmpty { break }
      pending.append(chunk)
      while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
        pending.removeSubrange(pending.startIndex...newline)
        onLine(line[...])
      }
    }
    if !pending.isEmpty { onLine(String(decoding: pending, as: UTF8.self)[...]) }
    process.waitUntilExit()
    return process.terminationStatus
  }
}
