import Testing

@testable import ModelGraphCore

@Suite("TableChanges.writtenRows: every row a change touches, ascending, once")
struct TableChangesWrittenRowsTests {
  @Test("no changes write no rows")
  func empty() {
    #expect(TableChanges().writtenRows.isEmpty)
  }

  @Test("rows named by several kinds of change appear once, in ascending order")
  func overlapping() {
    var changes = TableChanges()
    changes.inserted = [9, 3, 9]
    changes.updated[7] = SlotSet()
    changes.updated[3] = SlotSet()
    changes.deleted.append(row: 1, generation: 4)
    changes.deleted.append(row: 7, generation: 0)
    changes.relationshipsUpdated = [12, 1, 9]
    #expect(changes.writtenRows == [1, 3, 7, 9, 12])
  }

  @Test(
    "random changes agree with the sorted set of their rows",
    arguments: [5, 40, 2_000])
  func differential(rows: Int) {
    var seed: UInt64 = 0xC0FFEE &+ UInt64(rows)
    func next(_ bound: Int) -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((seed >> 33) % UInt64(bound))
    }
    for round in 0..<50 {
      var changes = TableChanges()
      var expected = Set<Int32>()
      // A session records a row's deletion once.
      var deleted = Set<Int>()
      for _ in 0..<next(3 * rows + 1) {
        let row = next(rows)
        expected.insert(Int32(row))
        switch next(4) {
        case 0: changes.inserted.append(row)
        case 1: changes.updated[row, default: SlotSet()].insert(next(8))
        case 2:
          if deleted.insert(row).inserted {
            changes.deleted.append(row: row, generation: UInt32(next(3)))
          }
        default: changes.relationshipsUpdated.insert(row)
        }
      }
      #expect(changes.writtenRows == expected.sorted(), "round \(round)")
    }
  }
}
