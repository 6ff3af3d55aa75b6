import Testing

@testable import ModelGraphCore

/// The radix sort of packed rows against the standard library's stable sort by row.
@Suite("PackedRowSort: rows packed with a value, sorted by row")
struct PackedRowSortTests {
  @Test(
    "sorts by the high half as a stable sort does",
    arguments: [0, 1, 200, 256, 257, 5_000, 70_000])
  func matchesStableSort(count: Int) {
    var seed: UInt64 = UInt64(count) &+ 17
    func next() -> UInt64 {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return seed
    }
    for largest in [UInt64(200), 70_000, 20_000_000, UInt64(UInt32.max)] {
      let packed = (0..<count).map { _ in (next() % (largest + 1)) << 32 | (next() >> 40) }
      var sorted = packed
      PackedRowSort.sort(&sorted)
      // The standard library's sort is stable: entries with the same row keep their order.
      let expected = packed.enumerated()
        .sorted { ($0.element >> 32, $0.offset) < ($1.element >> 32, $1.offset) }
        .map(\.element)
      #expect(sorted == expected, "count \(count), largest row \(largest)")
    }
  }

  @Test(
    "sorts row numbers as the standard sort does, sorted or not",
    arguments: [0, 1, 200, 256, 257, 5_000, 70_000])
  func sortsRows(count: Int) {
    var seed: UInt64 = UInt64(count) &+ 91
    func next() -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(seed >> 40)
    }
    for largest in [200, 70_000, 20_000_000, Int(UInt32.max)] {
      var rows = (0..<count).map { _ in next() % (largest + 1) }
      let expected = rows.sorted()
      PackedRowSort.sort(rows: &rows)
      #expect(rows == expected, "count \(count), largest row \(largest)")
      // Sorted already: unchanged.
      PackedRowSort.sort(rows: &rows)
      #expect(rows == expected, "count \(count), largest row \(largest), sorted")
    }
  }

  @Test("packed entries already in order stay as they are, equal rows in their order")
  func sortedPacked() {
    let packed: [UInt64] = (0..<1_000).map { UInt64($0 / 3) << 32 | UInt64(999 - $0) }
    var sorted = packed
    PackedRowSort.sort(&sorted)
    #expect(sorted == packed)
  }
}
