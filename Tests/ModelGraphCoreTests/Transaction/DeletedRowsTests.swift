import Testing

@testable import ModelGraphCore

@Suite("DeletedRows: a session's deletions in one table, appended and read by row")
struct DeletedRowsTests {
  @Test(
    "rows read back in the order recorded, and by row when asked", arguments: [0, 1, 300, 5_000])
  func orders(count: Int) {
    var seed: UInt64 = 0xDE1E7E &+ UInt64(count)
    func next(_ bound: Int) -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((seed >> 33) % UInt64(bound))
    }
    // Distinct rows, as a session records them, with generations.
    var rows = Array(0..<(2 * count))
    for index in rows.indices.reversed() where index > 0 {
      rows.swapAt(index, next(index + 1))
    }
    let recorded = rows.prefix(count).map { (row: $0, generation: UInt32(next(1_000))) }
    var deleted = DeletedRows()
    for (row, generation) in recorded { deleted.append(row: row, generation: generation) }
    #expect(deleted.count == count)
    #expect(deleted.isEmpty == (count == 0))
    #expect(deleted.map(\.key) == recorded.map(\.row))
    #expect(deleted.map(\.value) == recorded.map(\.generation))
    let byRow = recorded.sorted { $0.row < $1.row }
    #expect(deleted.sortedByRow().map(\.key) == byRow.map(\.row))
    #expect(deleted.sortedByRow().map(\.value) == byRow.map(\.generation))
    #expect(
      deleted.packedByRow() == byRow.map { PackedRowSort.pack(row: $0.row, value: $0.generation) })
    // Sorting in place leaves the rows by row, and their reading order with them.
    var sorted = deleted
    sorted.sortByRow()
    #expect(sorted.map(\.key) == byRow.map(\.row))
    #expect(deleted.map(\.key) == recorded.map(\.row), "the original keeps its order")
  }

  @Test("holdsRow finds exactly the rows of a sorted packed list")
  func holdsRow() {
    var deleted = DeletedRows()
    for row in [40, 3, 17, 4_096, 0] { deleted.append(row: row, generation: UInt32(row % 7)) }
    let packed = deleted.packedByRow()
    for row in 0..<5_000 {
      #expect(
        Session.holdsRow(row, packedRows: packed) == [0, 3, 17, 40, 4_096].contains(row),
        "row \(row)")
    }
    #expect(!Session.holdsRow(3, packedRows: []))
  }
}
