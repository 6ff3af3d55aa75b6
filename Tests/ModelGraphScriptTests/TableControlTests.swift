import Foundation
import Testing

@testable import ModelGraphScript

/// `.mode table` shows a string's control characters and line or paragraph separators as
/// escapes, so that a cell stays on its line and a stored escape sequence cannot drive the
/// terminal.
@Suite("Control characters in table output")
struct TableControlTests {
  @Test("every control character and separator in a cell is escaped")
  func escaped() {
    let result = InProcess.run(
      """
      entity T { n: Int; name: String }
      insert T { n: 0, name: "\\u{1b}[2Jgone" }
      insert T { n: 1, name: "a\\u{0}b\\u{7}c" }
      insert T { n: 2, name: "x\\u{2028}y\\u{2029}z\\u{85}w" }
      insert T { n: 3, name: "tab\\there\\r\\nend" }
      .mode table
      fetch T sort n
      """, path: "s")
    #expect(result.stderr == "")
    #expect(result.exit == 0)
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    // Header, rule, four rows, the count line, and the final newline's empty tail.
    #expect(lines.count == 8, "\(lines)")
    let raw = result.stdout.unicodeScalars.filter { scalar in
      scalar != "\n"
        && [.control, .lineSeparator, .paragraphSeparator].contains(
          scalar.properties.generalCategory)
    }
    #expect(raw.isEmpty, "raw scalars: \(raw.map { String($0.value, radix: 16) })")
    for cell in [
      "\\u{1b}[2Jgone", "a\\u{0}b\\u{7}c", "x\\u{2028}y\\u{2029}z\\u{85}w", "tab\\there\\r\\nend",
    ] {
      #expect(result.stdout.contains(cell), "\(cell) in \(result.stdout)")
    }
  }
}
