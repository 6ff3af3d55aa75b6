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
}
