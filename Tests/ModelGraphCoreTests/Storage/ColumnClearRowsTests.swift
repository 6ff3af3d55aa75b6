import Foundation
import Testing

@testable import ModelGraphCore

/// `Column.clear(rows:)`, which a save runs on every column of the rows it retires, a chunk at
/// a time (plain values as their bytes), against clearing the same rows one at a time.
@Suite("Column.clear(rows:): clearing many rows against clearing each")
struct ColumnClearRowsTests {
  private static let chunk = 1 << AnyColumn.chunkShift

  /// A published (frozen) column of `count` rows, row `row` holding `value(row)`.
  private static func published<Element: ColumnValue>(
    _ count: Int, _ value: (Int) -> Element
  ) -> Column<Element> {
    let column = Column<Element>()
    column.grow(to: count)
    for row in 0..<count { column[row] = value(row) }
    let frozen = unsafeDowncast(column.copy(), to: Column<Element>.self)
    frozen.freeze()
    return frozen
  }

  /// Clears random ascending rows of a working copy of a published column with
  /// `clear(rows:)` and, on another copy, one row at a time; both agree everywhere, and the
  /// published column keeps every value.
  private static func check<Element: ColumnValue>(
    _ name: String, count: Int, seed: UInt64, _ value: (Int) -> Element
  ) {
    let version = published(count, value)
    let batched = unsafeDowncast(version.copy(), to: Column<Element>.self)
    let single = unsafeDowncast(version.copy(), to: Column<Element>.self)
    var state = seed
    let rows = (0..<count).filter { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return (state >> 33) % 3 == 0
    }
    batched.clear(rows: rows)
    for row in rows { single.clear(row: row) }
    let cleared = Set(rows)
    for row in 0..<count {
      #expect(batched[row] == single[row], "\(name): row \(row)")
      #expect(
        batched[row] == (cleared.contains(row) ? Element.placeholder : value(row)),
        "\(name): row \(row)")
      #expect(version[row] == value(row), "\(name): the published row \(row) changed")
    }
  }

  /// A UUID made from `row`, never the placeholder's.
  private static func uuid(_ row: Int) -> UUID {
    let low = UInt8(truncatingIfNeeded: row)
    let high = UInt8(truncatingIfNeeded: row >> 8)
    return UUID(uuid: (1, low, high, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))
  }

  @Test(
    "plain and reference-holding values of every width, over one chunk and several",
    arguments: [1, 37, 2 * chunk + 5])
  func everyType(count: Int) {
    let seed = UInt64(count)
    Self.check("Int64", count: count, seed: seed) { Int64($0) &+ 1 }
    Self.check("Bool", count: count, seed: seed) { _ in true }
    Self.check("Double", count: count, seed: seed) { Double($0) + 0.5 }
    Self.check("Date", count: count, seed: seed) { Date(timeIntervalSince1970: Double($0 + 1)) }
    Self.check("UUID", count: count, seed: seed) { Self.uuid($0) }
    Self.check("Int64?", count: count, seed: seed) { Int64?(Int64($0)) }
    Self.check("Double?", count: count, seed: seed) { Double?(Double($0)) }
    Self.check("Bool?", count: count, seed: seed) { Bool?($0 % 2 == 0) }
    Self.check("UUID?", count: count, seed: seed) { UUID?(Self.uuid($0)) }
    Self.check("ObjectKey?", count: count, seed: seed) {
      ObjectKey?(ObjectKey(entity: 1, row: $0, generation: 2))
    }
    Self.check("Decimal", count: count, seed: seed) { Decimal($0) + 1 }
    Self.check("Data", count: count, seed: seed) { Data(repeating: 7, count: $0 % 5 + 1) }
    Self.check("[String]", count: count, seed: seed) { ["a\($0)", "b"] }
    Self.check("String?", count: count, seed: seed) { String?("value \($0)") }
  }

  @Test("rows a working column appended in place under its claim are cleared in place")
  func claimedRows() {
    let version = Self.published(10) { Int64($0) + 100 }
    let working = unsafeDowncast(version.copy(), to: Column<Int64>.self)
    for row in 10..<20 { working.append(Int64(row) + 100) }
    let shared = working.chunkStorage(0)
    #expect(shared == version.chunkStorage(0), "the working column appends in place")
    // Only claimed rows: written where they are, without a copy of the chunk.
    working.clear(rows: [12, 15, 19])
    #expect(working.chunkStorage(0) == shared)
    // A row the published version holds too: the chunk is copied first.
    working.clear(rows: [3, 13])
    #expect(working.chunkStorage(0) != shared)
    for row in 0..<20 {
      let expected = [3, 12, 13, 15, 19].contains(row) ? 0 : Int64(row) + 100
      #expect(working[row] == expected, "row \(row)")
    }
    #expect((0..<10).allSatisfy { version[$0] == Int64($0) + 100 })
  }
}
