/// A failure of the benchmark itself (bad options, a child that failed, an engine error).
package struct BenchmarkError: Error, CustomStringConvertible {
  /// What went wrong, in one line.
  package var message: String
  /// The process exit code it calls for: 64 for a usage error, 1 otherwise.
  package var exitCode: Int32

  /// An error with a message and an exit code.
  package init(_ message: String, exitCode: Int32 = 1) {
    self.message = message
    self.exitCode = exitCode
  }

  /// A usage error (exit code 64).
  package static func usage(_ message: String) -> BenchmarkError {
    BenchmarkError(message, exitCode: 64)
  }

  /// The message.
  package var description: String { message }
}
