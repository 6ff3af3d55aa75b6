import Foundation
import Testing

/// Expected outputs, kept in `Expected/` next to the tests.
enum ExpectedOutput {
  /// The text of `Expected/<name>`.
  static func text(_ name: String) throws -> String {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Expected").appendingPathComponent(name)
    return String(decoding: try Data(contentsOf: url), as: UTF8.self)
  }

  /// Records an issue naming the first line where `actual` differs from `Expected/<name>`, and
  /// writes `actual` to a temporary file whose path the issue gives.
  static func check(
    _ actual: String, against name: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let expected = try text(name)
    guard actual != expected else { return }
    let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
    let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let line =
      zip(actualLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
      ?? min(actualLines.count, expectedLines.count)
    let saved = FileManager.default.temporaryDirectory.appendingPathComponent("actual-\(name)")
    try Data(actual.utf8).write(to: saved)
    let want = line < expectedLines.count ? String(expectedLines[line]) : "<end of file>"
    let got = line < actualLines.count ? String(actualLines[line]) : "<end of output>"
    let message =
      "output differs from Expected/\(name) at line \(line + 1):\n  expected: \(want)\n"
      + "  actual:   \(got)\nthe whole output is in \(saved.path)"
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
  }
}
