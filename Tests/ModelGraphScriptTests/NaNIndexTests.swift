import Foundation
import ModelGraphScript
import Testing

/// NaN in a `Double` column the runner sorts or looks up through an ordered index: a fetch
/// sorts it after `nil` and before numbers (where `count … by` puts its group), and a range
/// through the index counts what the runner's own test of each object counts (it missed rows
/// when NaN keys sat anywhere in the index, and a save changing a NaN row stopped a debug
/// build).
@Suite("Runner NaN in sorts and indexes")
struct NaNIndexTests {
  static func run(_ source: String) -> ScriptResult {
    InProcess.run(source, path: "t.mgscript")
  }

  static let store = """
    entity P { n: Int; x: Double index; y: Double? }
    insert P { n: 1, x: 3, y: 3 }
    insert P { n: 2, x: 1e400 - 1e400, y: 1e400 - 1e400 }
    insert P { n: 3, x: 1, y: nil }
    insert P { n: 4, x: 25, y: 25 }
    insert P { n: 5, x: 1e400 - 1e400, y: 1e400 - 1e400 }
    insert P { n: 6, x: 0, y: 0 }
    save
    .mode csv
    """

  @Test("a fetch sorts NaN after nil and before numbers, and the reverse descending")
  func sorted() {
    let result = Self.run(
      Self.store + """

        fetch P.n sort y
        fetch P.n sort y desc
        fetch P.n sort x limit 3
        """)
    #expect(result.exit == 0, "\(result.stderr)")
    #expect(
      result.figures == [
        "n", "3", "2", "5", "6", "1", "4", "n", "4", "1", "6", "2", "5", "3", "n", "2", "5", "6",
      ])
  }

  @Test("index ranges count what the runner's own test counts, before and after a change")
  func ranges() {
    let result = Self.run(
      Self.store + """

        count P where x > 2
        count P where x + 0 > 2
        count P where x < 2
        count P where x + 0 < 2
        update P set x = 5 where n == 2
        save
        count P where x > 2
        count P where x + 0 > 2
        """)
    #expect(result.exit == 0, "\(result.stderr)")
    #expect(result.figures == ["2", "2", "2", "2", "3", "3"])
  }

  @Test("comparisons the runner tests itself leave NaN out, as the engine's do")
  func runnerComparisons() {
    let result = Self.run(
      """
      entity Q { n: Int; x: Double; s: String }
      insert Q { n: 1, x: 3, s: "a" }
      insert Q { n: 2, x: 1e400 - 1e400, s: "a" }
      insert Q { n: 3, x: 1, s: "a" }
      insert Q { n: 4, x: 1e400, s: "a" }
      save
      count Q where x > 2
      count Q where x > 2 OR s ==[c] "B"
      count Q where x >= 1 OR s ==[c] "B"
      count Q where x <= 1e400 OR s ==[c] "B"
      count Q where x < 2 OR s ==[c] "B"
      count Q where x BETWEEN {0, 1e400} OR s ==[c] "B"
      count Q where x != 3 OR s ==[c] "B"
      count Q where x == x OR s ==[c] "B"
      """)
    #expect(result.exit == 0, "\(result.stderr)")
    #expect(result.figures == ["2", "2", "3", "3", "1", "3", "3", "3"])
  }
}
