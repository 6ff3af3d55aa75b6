import Foundation

/// Writes whole lines to standard output or standard error, unbuffered, so a parent reading a
/// child's pipe and a person watching a long run see each line when it is made.
package enum Console {
  /// Writes `line` and a newline to standard output.
  package static func line(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }

  /// Writes `line` and a newline to standard error.
  package static func error(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }
}
