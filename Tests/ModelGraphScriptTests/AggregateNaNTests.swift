import Foundation
import ModelGraphScript
import Testing

/// `Double` NaN values (`inf - inf`, or stored by a Swift process) in aggregates: `by` puts them
/// in one group that counts them (each was a group of its own counting 0, as NaN is not equal
/// to itself), and `min`/`max` skip them as they skip `nil` (the answer depended on the order).
@Suite("Runner aggregates over NaN")
struct AggregateNaNTests {
  static func run(_ source: String) -> ScriptResult {
    InProcess.run(source, path: "t.mgscript")
  }

  static let store = """
    entity A { x: Double; g: String = "p" }
    insert A { x: 1e400 }
    insert A { x: 1e400, g: "q" }
    insert A { x: 5 }
    insert A { x: 2, g: "q" }
    update A set x = x - x where x > 10
    save
    .mode csv
    """

  @Test("by a Double attribute: one NaN group, counted, ordered where fetch sorts NaN")
  func grouped() {
    let result = Self.run(
      Self.store + """

        count A by x
        max A.g by x
        """)
    #expect(result.exit == 0, "\(result.stderr)")
    #expect(
      result.stdout.split(separator: "\n").filter { !$0.hasSuffix(" updated") } == [
        "x,count", "nan,2", "2.0,1", "5.0,1", "x,max(g)", "nan,q", "2.0,q", "5.0,p",
      ])
  }

  @Test("min and max skip NaN, whatever the order of the objects")
  func extremes() {
    let result = Self.run(
      Self.store + """

        min A.x
        max A.x
        min A.x by g
        max A.x by g
        """)
    #expect(result.exit == 0, "\(result.stderr)")
    #expect(
      result.stdout.split(separator: "\n").filter { !$0.hasSuffix(" updated") } == [
        "2.0", "5.0", "g,min(x)", "p,5.0", "q,2.0", "g,max(x)", "p,5.0", "q,2.0",
      ])
  }
}
