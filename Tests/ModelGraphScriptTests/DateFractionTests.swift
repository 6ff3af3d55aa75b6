import Foundation
import ModelGraphScript
import Testing

/// Dates with a fraction of a second. Output cut the fraction to milliseconds through
/// Foundation's formatter, which truncated the binary value (`.007` printed `.006`, and
/// `1950-01-01T00:00:00.001Z` printed `.000`), so `.dump` wrote dates that read back as other
/// dates. Now output rounds to the nearest millisecond, and a dump writes the fewest fraction
/// digits (3, 6, 9, …) that read back as the same date.
@Suite("Runner dates with fractions of a second")
struct DateFractionTests {
  static func run(_ source: String) -> ScriptResult {
    InProcess.run(source, path: "t.mgscript")
  }

  @Test("a fraction prints rounded to the millisecond, before 1970 and at the ends too")
  func printed() {
    let result = Self.run(
      """
      entity D { d: Date }
      insert D { d: 2026-01-01T00:00:00.007Z }
      insert D { d: 1950-01-01T00:00:00.001Z }
      insert D { d: 2026-01-01T23:59:59.9996Z }
      insert D { d: 0001-01-01T00:00:00.5Z }
      insert D { d: 9999-12-31T23:59:59.999Z }
      .mode csv
      fetch D.d
      """)
    #expect(result.exit == 0, "\(result.stderr)")
    #expect(
      result.figures == [
        "d", "2026-01-01T00:00:00.007Z", "1950-01-01T00:00:00.001Z", "2026-01-02T00:00:00.000Z",
        "0001-01-01T00:00:00.500Z", "9999-12-31T23:59:59.999Z",
      ])
  }

  @Test("a dump writes each date so that it reads back as the same date")
  func dumped() throws {
    let store = """
      entity D { n: Int; d: Date }
      insert D { n: 1, d: 2026-01-01T00:00:00.007Z }
      insert D { n: 2, d: 1950-01-01T00:00:00.001Z }
      insert D { n: 3, d: 2026-01-01T00:00:00.0005Z }
      insert D { n: 4, d: 2001-01-01T00:00:00.123456789Z }
      insert D { n: 5, d: 9999-12-31T23:59:59.999Z }
      save
      """
    let dump = Self.run(store + "\n.dump")
    #expect(dump.exit == 0, "\(dump.stderr)")
    let start = try #require(dump.stdout.range(of: "-- modelgraph .dump")).lowerBound
    let rebuilt = Self.run(
      String(dump.stdout[start...])
        + """
        count D where n == 1 AND d == 2026-01-01T00:00:00.007Z
        count D where n == 2 AND d == 1950-01-01T00:00:00.001Z
        count D where n == 3 AND d == 2026-01-01T00:00:00.0005Z
        count D where n == 4 AND d == 2001-01-01T00:00:00.123456789Z
        count D where n == 5 AND d == 9999-12-31T23:59:59.999Z
        """)
    #expect(rebuilt.exit == 0, "\(rebuilt.stderr)")
    #expect(rebuilt.figures == ["1", "1", "1", "1", "1"])
    #expect(dump.stdout.contains("d: 2026-01-01T00:00:00.007Z }"))
  }

  @Test("an offset past 23:59 is a malformed date, not another time")
  func badOffset() {
    for literal in ["2026-01-01T10:00:00+25:00", "2026-01-01T10:00:00-01:60"] {
      let result = Self.run("entity D { d: Date }\ninsert D { d: \(literal) }\n")
      #expect(result.exit == 1, "\(literal)")
      #expect(
        result.firstError
          == "t.mgscript:2:15: error: malformed date '\(literal)';"
          + " use 2026-05-01 or 2026-05-01T09:30:00Z", "\(literal)")
    }
  }
}
