import Foundation
import ModelGraphScript
import Testing

/// Inputs that once crashed the runner or gave a wrong answer, each with the behaviour it has
/// now: a clear error at the right place, or the right result.
@Suite("Runner robustness")
struct RobustnessTests {
  static func run(_ source: String) -> ScriptResult {
    InProcess.run(source, path: "t.mgscript")
  }

  @Test("a Double that no Decimal holds is an error, not a trap or NaN")
  func decimalFromHugeDouble() {
    for value in ["1e308 * 10", "1e300", "1e999"] {
      let result = Self.run("entity A { x: Decimal }\ninsert A { x: \(value) }\n")
      #expect(result.exit == 1)
      #expect(result.firstError.hasPrefix("t.mgscript:2:15: error: "))
      #expect(result.firstError.contains("does not fit x (Decimal)"))
    }
  }

  @Test("Decimal arithmetic out of range is an error, not a trap")
  func decimalArithmeticOutOfRange() {
    for (value, op) in [("1e120", "*"), ("1e-100", "*"), ("1e-100", "/ 1e100 /")] {
      let result = Self.run(
        "entity A { x: Decimal }\ninsert A { x: \(value) }\nupdate A set x = x \(op) x\n")
      #expect(result.exit == 1)
      #expect(
        result.firstError
          == "t.mgscript:3:18: error: the Decimal result of '\(op.prefix(1))' is out of range")
    }
  }

  @Test("a Double converts to Decimal by its decimal text: 0.1 stays 0.1")
  func decimalFromDouble() {
    let result = Self.run("entity A { x: Decimal }\ninsert A { x: 0.1 }\nsum A.x\n")
    #expect(result.stdout == "0.1\n")
  }

  @Test("a Decimal orders against a Double beyond Decimal's range")
  func decimalAgainstHugeDouble() {
    let script = """
      entity A { x: Decimal; y: Double }
      insert A { x: 2.5, y: 1e300 }
      count A where x < y
      count A where x > 1e300
      count A where x < 1e999

      """
    let result = Self.run(script)
    #expect(result.stderr == "")
    #expect(result.stdout == "1\n0\n1\n")
  }

  @Test("a script with Windows line ends runs, and errors name the right line")
  func windowsLineEnds() {
    let good = Self.run("entity A { x: Int }\r\ninsert A { x: 1 }\r\ncount A\r\n")
    #expect(good.stderr == "")
    #expect(good.stdout == "1\n")
    let bad = Self.run("entity A { x: Int }\r\ninsert A { x: \"one\" }\r\n")
    #expect(bad.stderr.hasPrefix("t.mgscript:2:15: error: type mismatch"))
    #expect(bad.stderr.contains("\ninsert A { x: \"one\" }\n              ^\n"))
  }

  @Test("bytes that are not UTF-8 are an error at their line and column, and nothing runs")
  func invalidUTF8() {
    var stdout = ""
    var stderr = ""
    let engine = ScriptEngine(output: { stdout += $0 })
    let runner = ScriptRunner(engine: engine, errorOutput: { stderr += $0 })
    let script =
      Data("entity A { x: String }\ninsert A { x: \"ab".utf8) + Data([0xFF]) + Data("\" }\n".utf8)
    #expect(!runner.run(script, path: "t.mgscript"))
    #expect(
      stderr.hasPrefix(
        "t.mgscript:2:18: error: the script is not valid UTF-8 (byte 0xFF at offset 40)\n"))
    #expect(stdout == "")
    #expect(runner.run(Data("entity A { x: String }\ncount A\n".utf8), path: "t.mgscript"))
    #expect(stdout == "0\n")
  }

  @Test("nesting up to the limit runs; one level more is an error at its place")
  func nestingLimit() {
    let depth = 150
    let within = [
      String(repeating: "(", count: depth) + "x == 1" + String(repeating: ")", count: depth),
      // Few NOTs: the engine compiles nested NOTs in time exponential in their number.
      String(repeating: "NOT NOT ", count: 5) + "x == 1",
      "x < " + String(repeating: "1 + ", count: depth) + "1",
      "x == " + String(repeating: "- ", count: depth) + "1",
    ]
    for condition in within {
      let result = Self.run("entity A { x: Int }\ninsert A { x: 1 }\ncount A where \(condition)\n")
      #expect(result.stderr == "", "\(condition.prefix(40))")
    }
    let tooDeep = String(repeating: "(", count: Parser.maximumDepth + 1) + "x == 1"
    let result = Self.run("entity A { x: Int }\ncount A where \(tooDeep)\n")
    #expect(
      result.firstError
        == "t.mgscript:2:\(15 + Parser.maximumDepth): error: the expression nests too deeply"
        + " (more than \(Parser.maximumDepth) levels); split it up")
  }
}
