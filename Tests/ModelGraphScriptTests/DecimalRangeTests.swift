import Foundation
import ModelGraphScript
import Testing

/// Literals a `Decimal` cannot hold exactly: beyond its range or with more significant digits
/// than its 38.
///
/// The choice: a `Double` attribute takes the nearest `Double`, as Swift does (`1e400` is
/// infinity, `1e-400` is 0, extra digits round), but a `Decimal` attribute refuses such a literal
/// with an error at its place. The runner already refused `1e-200` and `1e200` for a `Decimal`
/// (Foundation's `Decimal(string:)` holds neither), so taking `1e-400`, which is smaller still,
/// as 0 was inconsistent; and a 42-digit literal was cut to 38 digits without a word.
@Suite("Runner literals beyond what a Decimal holds")
struct DecimalRangeTests {
  static func run(_ source: String, keepGoing: Bool = false) -> ScriptResult {
    InProcess.run(source, path: "t.mgscript", keepGoing: keepGoing)
  }

  static let holds =
    "a Decimal holds 38 significant digits (39 below 3.4e38), the last at a place from 1e-128 to"
    + " 1e127 (up to about 3.4e165)"

  @Test("a Decimal attribute refuses a literal it cannot hold exactly, at the literal's place")
  func refused() {
    for (line, column, literal) in [
      ("insert A { d: 1e-400 }", 15, "1e-400"),
      ("insert A { d: -1e-400 }", 15, "-1e-400"),
      ("insert A { d: 1e-200 }", 15, "1e-200"),
      ("insert A { d: 1e200 }", 15, "1e200"),
      ("insert A { d: 1e128 }", 15, "1e128"),
      (
        "insert A { d: 1.00000000000000000000000000000000000000001 }", 15,
        "1.00000000000000000000000000000000000000001"
      ),
      ("update A set d = 1e-400", 18, "1e-400"),
      ("entity B { e: Decimal = 0.1e-399 }", 25, "0.1e-399"),
    ] {
      let result = Self.run("entity A { d: Decimal }; insert A { d: 1 }\n\(line)\n")
      #expect(result.exit == 1, "\(line)")
      #expect(
        result.firstError
          == "t.mgscript:2:\(column): error: \(literal) does not fit"
          + " \(line.hasPrefix("entity") ? "e" : "d") (Decimal): \(Self.holds)",
        "\(line)")
    }
  }

  @Test("a Decimal attribute keeps a literal it holds, trailing zeros and all the range's ends")
  func kept() {
    let result = Self.run(
      """
      entity A { d: Decimal }
      insert A { d: 1e-128 }
      insert A { d: 12345678901234567890123456789012345678.000000 }
      insert A { d: 0.000000000000000000000000000000000000000000000 }
      insert A { d: 12345678901234567890123456789012345678e127 }
      save
      .mode csv
      fetch A.d sort d
      """)
    #expect(result.exit == 0, "\(result.stderr)")
    #expect(
      result.figures == [
        "d", "0", "0." + String(repeating: "0", count: 127) + "1",
        "12345678901234567890123456789012345678",
        "12345678901234567890123456789012345678" + String(repeating: "0", count: 127),
      ])
  }

  @Test("a Double attribute still takes the nearest Double, and the refusal changes nothing saved")
  func doubleNearest() {
    let result = Self.run(
      """
      entity A { d: Decimal = 1; x: Double }
      insert A { x: 1e-400 }
      insert A { x: 1.00000000000000000000000000000000000000001 }
      save
      insert A { x: 2, d: 1e-400 }
      save
      .mode csv
      fetch A.d, x sort x
      """, keepGoing: true)
    #expect(result.exit == 1)
    #expect(result.figures == ["d,x", "1,0.0", "1,1.0"])
  }

  @Test("a CSV import refuses a Decimal field it cannot hold exactly, and imports nothing")
  func imported() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-decimal-\(UUID().uuidString).csv")
    defer { try? FileManager.default.removeItem(at: file) }
    for (field, accepted) in [
      ("1.00000000000000000000000000000000000000001", false), ("12abc", false),
      ("+12345678901234567890.5", true),
    ] {
      try "d\n1\n\(field)\n".write(to: file, atomically: true, encoding: .utf8)
      let result = Self.run(
        "entity A { d: Decimal }\n.import \"\(file.path)\" A\n.mode csv\nfetch A.d sort d\n",
        keepGoing: true)
      if accepted {
        #expect(result.exit == 0, "\(field): \(result.stderr)")
        #expect(result.figures.suffix(2) == ["1", "12345678901234567890.5"], "\(field)")
      } else {
        #expect(result.firstError.hasSuffix(":3: d is Decimal; '\(field)' is not one"), "\(field)")
        #expect(result.figures == ["d"], "\(field)")
      }
    }
  }
}
