import Testing

@testable import ModelGraphCore

/// The rows an index walk passes over, against `Set.contains`.
@Suite("Index: skipped rows of a walk")
struct SkippedRowsTests {
  @Test("membership matches the set's, for sets from empty to thousands of rows")
  func membership() {
    var random = QueryRandom(seed: 5)
    for size in [0, 1, 2, 7, 8, 9, 100, 5_000] {
      let spread = Int32([10, 100_000, Int(Int32.max)][size % 3])
      var rows = Set<Int32>()
      while rows.count < size { rows.insert(Int32.random(in: 0...spread, using: &random)) }
      let skipped = SkippedRows(rows)
      #expect(skipped.isEmpty == rows.isEmpty)
      for row in rows { #expect(skipped.contains(row), "size \(size) row \(row)") }
      var probes: [Int32] = [0, 1, Int32.max, -1, Int32.min]
      for _ in 0..<2_000 { probes.append(Int32.random(in: 0...spread, using: &random)) }
      for row in probes {
        #expect(skipped.contains(row) == rows.contains(row), "size \(size) row \(row)")
      }
    }
  }
}
