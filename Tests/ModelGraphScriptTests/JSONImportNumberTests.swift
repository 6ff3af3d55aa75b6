import Foundation
import ModelGraphScript
import Testing

/// Numbers of a JSON `.import`: a `Decimal` attribute takes exactly the digits the file writes
/// (it went through `Double`, so `0.1000000000000000055511151231257827` lost its tail and a
/// 42-digit number was cut to 38 digits without a word), or refuses them as a CSV field is
/// refused; a `UInt` attribute takes values past `Int64.max` (refused as `1.8446744073709552e+19`).
@Suite("JSON import numbers")
struct JSONImportNumberTests {
  /// Runs `statements` after declaring `entity A` and writing `json` to a file `.import` reads.
  static func run(_ json: String, _ statements: String) throws -> ScriptResult {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-json-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: file) }
    try json.write(to: file, atomically: true, encoding: .utf8)
    return InProcess.run(
      """
      entity A { n: Int; d: Decimal; u: UInt = 0; ds: [Decimal]? }
      .mode csv
      .import "\(file.path)" A
      \(statements)
      """, path: "t.mgscript", keepGoing: true)
  }

  @Test("a Decimal attribute takes every digit of a JSON number, and UInt its whole range")
  func exact() throws {
    let result = try Self.run(
      """
      [{"n": 1, "d": 0.1000000000000000055511151231257827, "u": 18446744073709551615},
       {"n": 2, "d": 12345678901234567890.123, "ds": [1e-20, 0.30000000000000000000000000000000000001]},
       {"n": 3, "d": -4.5e3, "u": 9223372036854775808}]
      """,
      """
      fetch A.n, d, u sort n
      fetch A.ds where n == 2
      count A where d == 0.1000000000000000055511151231257827
      """)
    #expect(result.exit == 0, "\(result.stderr)")
    #expect(
      result.figures == [
        "3 objects imported into A",
        "n,d,u",
        "1,0.1000000000000000055511151231257827,18446744073709551615",
        "2,12345678901234567890.123,0",
        "3,-4500,9223372036854775808",
        "ds", "\"[0.00000000000000000001, 0.30000000000000000000000000000000000001]\"",
        "1",
      ])
  }

  @Test("a JSON number a Decimal cannot hold is the import's error, and nothing is imported")
  func refused() throws {
    for (json, text) in [
      (
        #"[{"n": 1, "d": 2}, {"n": 2, "d": 1.00000000000000000000000000000000000000001}]"#,
        "1.00000000000000000000000000000000000000001"
      ),
      (#"[{"n": 1, "d": 2}, {"n": 2, "d": 1e400}]"#, "1e400"),
      (#"[{"n": 1, "d": 2}, {"n": 2, "d": 1, "ds": [1, 1e-300]}]"#, nil),
      (
        #"[{"n": 1, "d": 2}, {"n": 2, "d": 1, "u": 18446744073709551616}]"#,
        "18446744073709551616"
      ),
    ] {
      let result = try Self.run(json, "count A")
      #expect(result.figures == ["0"], "\(json)")
      #expect(result.firstError.contains(", object 2: "), "\(json): \(result.stderr)")
      if let text {
        #expect(result.firstError.hasSuffix("'\(text)' is not one"), "\(json): \(result.stderr)")
      }
    }
  }
}
