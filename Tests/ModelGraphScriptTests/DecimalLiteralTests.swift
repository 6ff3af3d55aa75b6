import Foundation
import ModelGraphScript
import Testing

/// Literals with more significant digits than a `Double` keeps: a `Decimal` attribute takes,
/// compares with and computes with their every digit (they went through `Double`, so
/// `1.000000000000000000001` was stored and matched as `1`), and other numbers take them as the
/// nearest `Double`, as before.
@Suite("Runner decimal literals past Double's precision")
struct DecimalLiteralTests {
  static func run(_ source: String) -> ScriptResult {
    InProcess.run(source, path: "t.mgscript")
  }

  @Test("a Decimal attribute stores a long literal digit for digit, and sums it exactly")
  func stored() {
    let result = Self.run(
      """
      entity A { d: Decimal }
      insert A { d: 12345678901234567890.123456789 }
      insert A { d: -0.000000001 }
      save
      .mode csv
      fetch A.d sort d
      sum A.d
      """)
    #expect(result.exit == 0, "\(result.stderr)")
    #expect(
      result.figures == [
        "d", "-0.000000001", "12345678901234567890.123456789",
        "12345678901234567890.123456788",
      ])
  }

  @Test("a comparison with a long literal is exact in fetch, count and the runner's own test")
  func compared() {
    let result = Self.run(
      """
      entity A { d: Decimal; n: String = "" }
      insert A { d: 1 }
      insert A { d: 1.000000000000000000001 }
      save
      count A where d == 1.000000000000000000001
      count A where d > 1.0000000000000000000001
      count A where d == 1
      count A where d == 1.000000000000000000001 AND n LIKE "*"
      count A where -d == -1.000000000000000000001
      """)
    #expect(result.exit == 0, "\(result.stderr)")
    #expect(result.figures == ["1", "1", "1", "1", "1"])
  }

  @Test("update and let compute with a long literal exactly")
  func computed() {
    let result = Self.run(
      """
      entity A { d: Decimal; x: Double = 0; i: Int = 0 }
      insert A { d: 1 }
      update A set d = d + 0.000000000000000000001
      update A set x = 0.30000000000000000001, i = 2.0000000000000000000
      save
      .mode csv
      fetch A.d, x, i
      count A where d * 2 == 2.000000000000000000002
      """)
    #expect(result.exit == 0, "\(result.stderr)")
    #expect(result.figures == ["d,x,i", "1.000000000000000000001,0.3,2", "1"])
  }
}
