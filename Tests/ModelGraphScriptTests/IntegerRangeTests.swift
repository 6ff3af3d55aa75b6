import Foundation
import ModelGraphScript
import Testing

/// Integers at the ends of the 64-bit ranges: every value of an `Int` or `UInt` attribute can be
/// written as a literal and computed with exactly, and only results outside both ranges are
/// errors.
@Suite("Runner integers at the 64-bit ends")
struct IntegerRangeTests {
  static func run(_ source: String) -> ScriptResult {
    InProcess.run(source, path: "t.mgscript")
  }

  @Test("the smallest Int64 is a literal: inserted, compared, printed back and kept as a default")
  func smallestInteger() {
    let result = Self.run(
      """
      entity A { x: Int, y: Int = -9223372036854775808 }
      insert A { x: -9223372036854775808 }
      insert A { x: 9223372036854775807 }
      count A where x == -9223372036854775808
      count A where x < -9223372036854775807
      min A.x
      min A.y
      .schema A
      """)
    #expect(result.exit == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.prefix(4) == ["1", "1", "-9223372036854775808", "-9223372036854775808"])
    #expect(result.stdout.contains("y: Int = -9223372036854775808"))
  }

  @Test("a UInt attribute takes literals up to the largest UInt64")
  func largestUnsigned() {
    let result = Self.run(
      """
      entity A { x: UInt }
      insert A { x: 18446744073709551615 }
      insert A { x: 9223372036854775808 }
      insert A { x: 1 }
      count A where x > 9223372036854775807
      max A.x
      """)
    #expect(result.exit == 0, "\(result.stderr)")
    #expect(result.stdout.split(separator: "\n") == ["2", "18446744073709551615"])
  }

  @Test("a literal past both 64-bit ranges, or below Int64's, does not fit an integer attribute")
  func outOfRange() {
    for (line, column, integer) in [
      ("insert A { x: 18446744073709551616 }", 15, "18446744073709551616"),
      ("insert A { x: -9223372036854775809 }", 15, "-9223372036854775809"),
      ("insert A { x: -99999999999999999999 }", 15, "-99999999999999999999"),
    ] {
      let result = Self.run("entity A { x: Int }\n\(line)\n")
      #expect(result.exit == 1)
      #expect(
        result.firstError == "t.mgscript:2:\(column): error: \(integer) does not fit x (Int)",
        "\(line)")
    }
  }

  @Test("a literal past 64 bits is exact for a Decimal, the nearest for a Double, and compares")
  func pastSixtyFourBits() {
    let result = Self.run(
      """
      entity A { d: Decimal; x: Double = 0; n: Int = 0 }
      insert A { d: 18446744073709551616, x: 18446744073709551616 }
      insert A { d: -99999999999999999999999999999999999999, x: -100000000000000000000 }
      insert A { d: -9223372036854775809, n: 1 }
      save
      .mode csv
      fetch A.d, x sort d
      count A where d > 18446744073709551615
      count A where n < 100000000000000000000
      sum A.d
      """)
    #expect(result.exit == 0, "\(result.stderr)")
    #expect(
      result.figures == [
        "d,x", "-99999999999999999999999999999999999999,-1e+20",
        "-9223372036854775809,0.0", "18446744073709551616,1.8446744073709552e+19", "1", "3",
        "-99999999999999999990776627963145224192",
      ])
  }

  @Test("a limit past both 64-bit ranges is out of range too")
  func limitPastSixtyFourBits() {
    let result = Self.run("entity A { x: Int }\nfetch A limit 18446744073709551616\n")
    #expect(result.exit == 1)
    #expect(
      result.firstError
        == "t.mgscript:2:15: error: a limit of 18446744073709551616 is out of range")
  }

  @Test("an Int attribute refuses an unsigned literal it cannot hold")
  func unsignedIntoSigned() {
    let result = Self.run("entity A { x: Int }\ninsert A { x: 9223372036854775808 }\n")
    #expect(result.exit == 1)
    #expect(
      result.firstError
        == "t.mgscript:2:15: error: 9223372036854775808 does not fit x (Int)")
  }

  @Test("a limit past Int64's range is an error at its place")
  func limitOutOfRange() {
    let result = Self.run("entity A { x: Int }\nfetch A limit 9223372036854775808\n")
    #expect(result.exit == 1)
    #expect(
      result.firstError
        == "t.mgscript:2:15: error: a limit of 9223372036854775808 is out of range")
  }

  @Test("negating the smallest Int64 is an overflow error, not a trap")
  func negatedSmallest() {
    let result = Self.run(
      "entity A { x: Int }\ninsert A { x: 1 }\nupdate A set x = - -9223372036854775808\n")
    #expect(result.exit == 1)
    #expect(result.firstError.hasPrefix("t.mgscript:3:18: error: integer overflow"))
  }

  @Test("arithmetic on UInt values is exact integer arithmetic, past Int64's range too")
  func unsignedArithmetic() {
    let result = Self.run(
      """
      entity A { x: UInt }
      insert A { x: 1 }
      update A set x = x + 1
      max A.x
      update A set x = x * 9223372036854775807
      max A.x
      update A set x = x + 1
      max A.x
      update A set x = x / 2 - 9223372036854775807 + 4 % 3
      max A.x
      count A where x == 1
      """)
    #expect(result.exit == 0, "\(result.stderr)")
    #expect(
      result.figures == ["2", "18446744073709551614", "18446744073709551615", "1", "1"])
  }

  @Test("an unsigned result out of range, or negative for a UInt attribute, is an error")
  func unsignedOutOfRange() {
    for (update, message) in [
      ("x = x + 18446744073709551615", "integer overflow in '+'"),
      ("x = (x + 1) * 18446744073709551615", "integer overflow in '*'"),
      ("x = 0 - 18446744073709551615", "integer overflow in '-'"),
      ("x = x - 2", "-1 does not fit x (UInt)"),
      ("x = x / (x - 1)", "division by zero in '/'"),
    ] {
      let result = Self.run("entity A { x: UInt }\ninsert A { x: 1 }\nupdate A set \(update)\n")
      #expect(result.exit == 1, "\(update)")
      #expect(result.firstError.hasSuffix("error: \(message)"), "\(update)")
    }
  }

  @Test("Int and UInt operands mix exactly when the result fits an Int64")
  func mixedArithmetic() {
    let result = Self.run(
      """
      entity A { x: Int, y: UInt }
      insert A { x: -5, y: 18446744073709551615 }
      update A set x = x + y - 18446744073709551610
      max A.x
      update A set x = y / x
      """)
    #expect(result.exit == 1)
    #expect(result.figures == ["0"])
    #expect(result.firstError.hasSuffix("error: division by zero in '/'"))
  }

  @Test("the mean of integers whose sum passes 64 bits is computed; their sum is an overflow")
  func meanPastSixtyFourBits() {
    let result = Self.run(
      """
      entity A { x: Int }
      insert A { x: 1 }
      insert A { x: 9223372036854775807 }
      avg A.x
      sum A.x
      """)
    #expect(result.exit == 1)
    #expect(result.figures == ["4.611686018427388e+18"])
    #expect(result.firstError == "t.mgscript:5:1: error: integer overflow in '+'")
  }
}
