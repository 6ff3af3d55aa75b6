import Foundation

/// The `modelgraph` executable `swift build` put under the package's `.build` directory.
enum Executable {
  /// Its location, or `nil` when it was not built.
  static let url: URL? = {
    let build = GoldenCase.packageRoot.appendingPathComponent(".build")
    var candidates = [build.appendingPathComponent("debug/modelgraph")]
    if let entries = try? FileManager.default.contentsOfDirectory(atPath: build.path) {
      for entry in entries.sorted() where entry.contains("-") {
        candidates.append(build.appendingPathComponent("\(entry)/debug/modelgraph"))
      }
    }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }()

  /// Runs it with `arguments` in `directory`, feeding `input` on standard input.
  static func run(_ arguments: [String], input: String = "", in directory: URL? = nil) throws
    -> ScriptResult
  {
    let process = Process()
    process.executableURL = url!
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    let out = try stdout.fileHandleForReading.readToEnd() ?? Data()
    let err = try stderr.fileHandleForReading.readToEnd() ?? Data()
    process.waitUntilExit()
    return ScriptResult(
      stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self),
      exit: process.terminationStatus)
  }
}
