import Foundation
import ModelGraphScript
import Testing

/// A query whose condition the engine evaluates reports arithmetic that overflows or divides
/// by zero as the runner's own evaluation does, on the statement; nothing is changed by a
/// failed `delete … where` or `update … where`, and `--keep-going` goes on after it.
@Suite("Runner: arithmetic faults in engine conditions")
struct ArithmeticFaultScriptTests {
  static let setup = """
    entity Item { n: Int, d: Int, name: String }
    insert Item { n: 9223372036854775807, d: 0, name: "big" }
    insert Item { n: 8, d: 2, name: "eight" }

    """

  /// The errors of a run, one per line, without the file and position.
  static func errors(_ result: ScriptResult) -> [String] {
    result.stderr.split(separator: "\n").compactMap { line in
      line.range(of: "error: ").map { String(line[$0.upperBound...]) }
    }
  }

  @Test(
    "each query statement reports the fault",
    arguments: [
      ("count Item where n + 1 != 0", "integer overflow in '+'"),
      ("fetch Item where n / d > 3", "division by zero in '/'"),
      ("fetch Item where n % d == 0 sort n limit 1", "division by zero in '%'"),
      ("count Item where n * 2 > 0", "integer overflow in '*'"),
      ("count Item where -2 - n < 0", "integer overflow in '-'"),
      ("delete Item where n + 1 != 0", "integer overflow in '+'"),
      ("update Item set name = \"x\" where n / d > 3", "division by zero in '/'"),
    ])
  func statements(_ statement: String, _ message: String) {
    let result = InProcess.run(Self.setup + statement + "\n", path: "t.mgscript")
    #expect(result.exit == 1, "\(statement): \(result.stdout)")
    #expect(result.firstError == "t.mgscript:4:1: error: \(message)", "\(statement)")
  }

  @Test("a failed delete or update changes nothing, and --keep-going goes on")
  func keepGoing() {
    let result = InProcess.run(
      Self.setup + """
        delete Item where n + 1 != 0
        update Item set name = "x" where n / d > 3
        count Item
        count Item where name == "x"
        count Item where d != 0 AND n / d > 3
        count Item where d == 0 OR n / d > 3
        """, path: "t.mgscript", keepGoing: true)
    #expect(
      Self.errors(result) == ["integer overflow in '+'", "division by zero in '/'"],
      "\(result.stderr)")
    #expect(result.stdout.split(separator: "\n") == ["2", "0", "1", "2"], "\(result.stdout)")
  }

  @Test("a conjunct the runner tests first guards arithmetic written after it")
  func residualGuard() {
    // LIKE is the runner's own test: the division after it is the runner's too, and runs
    // only on the rows LIKE keeps.
    let result = InProcess.run(
      Self.setup + """
        count Item where name LIKE "e*" AND n / d > 3
        count Item where n / d > 3 AND name LIKE "e*"
        """, path: "t.mgscript", keepGoing: true)
    #expect(result.stdout == "1\n", "\(result.stdout)")
    #expect(Self.errors(result) == ["division by zero in '/'"], "\(result.stderr)")
  }
}
