import Foundation
import ModelGraphScript
import Testing

/// Date arithmetic whose result falls outside the dates a script can write (0001-01-01 to
/// 9999-12-31) is an error at its place: such a date printed as another one (`+ 1e300 seconds`
/// showed year 506713, `- 1e300 seconds` year -4712) or as text no script reads back.
@Suite("Runner dates past the literal range")
struct DateRangeTests {
  static func run(_ source: String) -> ScriptResult {
    InProcess.run(source, path: "t.mgscript")
  }

  @Test("update, insert, let and columns refuse a date past either end and change nothing")
  func refused() {
    for statement in [
      "update A set t = t + 1e300 seconds",
      "update A set t = t - 1e300 seconds",
      "update A set t = t + 1 days",
      "insert A { t: 0001-01-01 - 1 seconds }",
      "insert A { t: 1 days + 9999-12-31T23:59:59Z }",
      "fetch A.t + 2 days",
      "count A where t + 1e300 seconds > t",
      "count A where t > now() + 1e300 seconds",
    ] {
      let result = Self.run(
        """
        entity A { t: Date }
        insert A { t: 9999-12-31T12:00:00Z }
        save
        \(statement)
        .mode csv
        fetch A.t
        """)
      #expect(result.exit == 1, "\(statement)")
      #expect(
        result.firstError.hasPrefix("t.mgscript:4:")
          && result.firstError.contains("out of the range of dates"),
        "\(statement): \(result.stderr)")
      #expect(result.stdout == "", "\(statement): \(result.stdout)")
    }
  }

  @Test("dates at the ends of the range still compute, print and compare")
  func ends() {
    let result = Self.run(
      """
      entity A { t: Date }
      insert A { t: 0001-01-02 }
      insert A { t: 9999-12-30T23:59:59Z }
      update A set t = t - 1 days where t < 2000-01-01
      update A set t = t + 1 days where t > 2000-01-01
      save
      .mode csv
      fetch A.t sort t
      count A where t + 0 seconds >= 0001-01-01 AND t - 0 seconds <= 9999-12-31T23:59:59Z
      """)
    #expect(result.exit == 0, "\(result.stderr)")
    #expect(
      result.stdout.split(separator: "\n").filter { !$0.hasSuffix(" updated") } == [
        "t", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2",
      ])
  }
}
