import Testing

@testable import ModelGraph

@Suite("Identity map: the handles of each entity's rows")
struct IdentityMapTests {
  @Test("few handles in a hash table, many in pages by row; the same answers in both")
  func sparseThenDense() {
    let objects = (0..<(IdentityMap.denseThreshold + 100)).map { _ in CCTrip() }
    let map = IdentityMap()
    var expected: [Int: ObjectIdentifier] = [:]
    for (index, object) in objects.enumerated() {
      // Rows going down from 2_000, 7 apart: paged at the 33rd (one handle in 64 rows).
      let row = 2_000 - index * 7
      map.insert(Unmanaged.passUnretained(object), entity: 2, row: row)
      expected[row] = ObjectIdentifier(object)
      if index == 10 || index == objects.count - 1 {
        #expect(map.isPaged(entity: 2) == (index > 10))
        #expect(map.count(ofEntity: 2) == expected.count)
        #expect(Set(map.rows(ofEntity: 2)) == Set(expected.keys))
        for (row, identity) in expected {
          #expect(
            map.handle(entity: 2, row: row).map { ObjectIdentifier($0.takeUnretainedValue()) }
              == identity)
        }
        #expect(map.handle(entity: 2, row: 3) == nil)
        #expect(map.handle(entity: 1, row: row) == nil)
        #expect(map.handle(entity: 3, row: row) == nil)
      }
    }
    for row in expected.keys { #expect(map.remove(entity: 2, row: row)) }
    #expect(!map.remove(entity: 2, row: 5))
    #expect(map.count(ofEntity: 2) == 0)
    #expect(map.rows(ofEntity: 2).isEmpty)
    map.compact()
    map.insert(Unmanaged.passUnretained(objects[0]), entity: 2, row: 7)
    #expect(map.count(ofEntity: 2) == 1)
    #expect(map.rows(ofEntity: 2) == [7])
  }

  @Test("rows past the pages' end add pages; clearing them adds none")
  func growsPastItsEnd() {
    let objects = (0..<(IdentityMap.denseThreshold + 1)).map { _ in CCTrip() }
    let map = IdentityMap()
    // Rows 0...threshold: the last insertion turns the table paged.
    for (row, object) in objects.enumerated() {
      map.insert(Unmanaged.passUnretained(object), entity: 0, row: row)
    }
    #expect(map.count(ofEntity: 0) == objects.count)
    // Clearing a row far past the end changes nothing.
    #expect(!map.remove(entity: 0, row: 1_000_000))
    #expect(map.count(ofEntity: 0) == objects.count)
    #expect(map.handle(entity: 0, row: 1_000_000) == nil)
    // Rows far past the end, then just past the end: each lands where asked.
    map.insert(Unmanaged.passUnretained(objects[1]), entity: 0, row: 100_000)
    map.insert(Unmanaged.passUnretained(objects[2]), entity: 0, row: objects.count)
    #expect(map.count(ofEntity: 0) == objects.count + 2)
    #expect(
      map.handle(entity: 0, row: 100_000)?.toOpaque()
        == Unmanaged.passUnretained(objects[1]).toOpaque())
    #expect(
      map.handle(entity: 0, row: objects.count)?.toOpaque()
        == Unmanaged.passUnretained(objects[2]).toOpaque())
    #expect(map.handle(entity: 0, row: 99_999) == nil)
    #expect(map.handle(entity: 0, row: 100_001) == nil)
    #expect(Set(map.rows(ofEntity: 0)) == Set(Array(0...objects.count) + [100_000]))
  }

  @Test("pages emptied by removals come back clear for other rows")
  func reusesEmptiedPages() {
    let objects = (0..<130).map { _ in CCTrip() }
    let map = IdentityMap()
    // Dense rows of page 0 keep the table paged; then one handle in each page after it.
    for (row, object) in objects.prefix(IdentityMap.denseThreshold + 1).enumerated() {
      map.insert(Unmanaged.passUnretained(object), entity: 0, row: row)
    }
    let dense = map.rows(ofEntity: 0)
    #expect(map.isPaged(entity: 0))
    for (index, object) in objects.enumerated() {
      map.insert(
        Unmanaged.passUnretained(object), entity: 0, row: (index + 1) * IdentityMap.pageSize)
    }
    for index in objects.indices {
      #expect(map.remove(entity: 0, row: (index + 1) * IdentityMap.pageSize))
    }
    #expect(map.isPaged(entity: 0))
    #expect(map.count(ofEntity: 0) == dense.count)
    #expect(Set(map.rows(ofEntity: 0)) == Set(dense))
    // Other rows of the other pages: no row removed before answers, every new row does.
    let rows = objects.indices.map { ($0 + 1) * IdentityMap.pageSize + 1 + $0 }
    for (object, row) in zip(objects, rows) {
      map.insert(Unmanaged.passUnretained(object), entity: 0, row: row)
    }
    #expect(map.count(ofEntity: 0) == dense.count + objects.count)
    for (index, (object, row)) in zip(objects, rows).enumerated() {
      #expect(map.handle(entity: 0, row: (index + 1) * IdentityMap.pageSize) == nil)
      #expect(
        map.handle(entity: 0, row: row)?.toOpaque() == Unmanaged.passUnretained(object).toOpaque())
    }
    #expect(Set(map.rows(ofEntity: 0)) == Set(dense + rows))
  }

  @Test("a page's handles leave one by one: counts follow, the emptied page serves other rows")
  func pagedHandlesLeaveOneByOne() {
    let objects = (0..<(IdentityMap.denseThreshold + 3)).map { _ in CCTrip() }
    let map = IdentityMap()
    // Rows of page 0, then two rows of page 2 (the table is paged after the threshold).
    let rows =
      Array(0..<(objects.count - 2)) + [2 * IdentityMap.pageSize, 2 * IdentityMap.pageSize + 5]
    for (object, row) in zip(objects, rows) {
      map.insert(Unmanaged.passUnretained(object), entity: 1, row: row)
    }
    #expect(map.count(ofEntity: 1) == objects.count)
    // Registering again, or another handle in the same place, adds no handle.
    map.insert(Unmanaged.passUnretained(objects[0]), entity: 1, row: rows[0])
    map.insert(Unmanaged.passUnretained(objects[1]), entity: 1, row: rows[0])
    #expect(map.count(ofEntity: 1) == objects.count)
    #expect(
      map.handle(entity: 1, row: rows[0])?.toOpaque()
        == Unmanaged.passUnretained(objects[1]).toOpaque())
    // A handle that is not the row's stays; a row without a handle, or a negative one, has none
    // to remove.
    #expect(!map.remove(Unmanaged.passUnretained(objects[0]), entity: 1, row: rows[0]))
    #expect(!map.remove(entity: 1, row: rows.count + 1))
    #expect(!map.remove(entity: 1, row: -1))
    #expect(!map.remove(entity: -1, row: 0))
    #expect(map.handle(entity: -1, row: 0) == nil)
    #expect(map.count(ofEntity: -1) == 0)
    #expect(map.count(ofEntity: 1) == objects.count)
    // Page 2's handles, the last one emptying the page.
    #expect(
      map.remove(
        Unmanaged.passUnretained(objects[objects.count - 2]), entity: 1, row: rows[rows.count - 2]))
    #expect(map.count(ofEntity: 1) == objects.count - 1)
    #expect(map.remove(entity: 1, row: rows[rows.count - 1]))
    #expect(map.count(ofEntity: 1) == objects.count - 2)
    #expect(map.handle(entity: 1, row: rows[rows.count - 1]) == nil)
    // Page 0's handles, the first replaced above.
    #expect(map.remove(Unmanaged.passUnretained(objects[1]), entity: 1, row: rows[0]))
    for (object, row) in zip(objects, rows).dropFirst().dropLast(2) {
      #expect(
        map.handle(entity: 1, row: row)?.toOpaque() == Unmanaged.passUnretained(object).toOpaque())
      #expect(map.remove(Unmanaged.passUnretained(object), entity: 1, row: row))
      #expect(map.handle(entity: 1, row: row) == nil)
    }
    #expect(map.count(ofEntity: 1) == 0)
    #expect(map.rows(ofEntity: 1).isEmpty)
    // The emptied pages come back clear for rows of other pages.
    map.insert(Unmanaged.passUnretained(objects[2]), entity: 1, row: 5 * IdentityMap.pageSize + 7)
    map.insert(Unmanaged.passUnretained(objects[3]), entity: 1, row: 3 * IdentityMap.pageSize)
    #expect(map.count(ofEntity: 1) == 2)
    #expect(Set(map.rows(ofEntity: 1)) == [5 * IdentityMap.pageSize + 7, 3 * IdentityMap.pageSize])
    #expect(map.handle(entity: 1, row: 5 * IdentityMap.pageSize + 5) == nil)
  }

  @Test("a vacancy fills its row with one store, in a hash table and in a page")
  func fillsVacancies() {
    let objects = (0..<(IdentityMap.denseThreshold + 4)).map { _ in CCTrip() }
    let map = IdentityMap()
    // Entity 0 has no table yet: the vacancy has no place, and filling it inserts.
    let (none, first) = map.find(entity: 0, row: 40)
    #expect(none == nil)
    map.fill(first, with: Unmanaged.passUnretained(objects[0]))
    #expect(map.count(ofEntity: 0) == 1)
    // Hash table rows, up to the threshold where the last fill turns the table paged.
    for (index, object) in objects.enumerated().dropFirst() {
      let row = 40 + index * 3
      let (found, vacancy) = map.find(entity: 0, row: row)
      #expect(found == nil)
      map.fill(vacancy, with: Unmanaged.passUnretained(object))
      #expect(map.count(ofEntity: 0) == index + 1)
    }
    for (index, object) in objects.enumerated() {
      let (found, _) = map.find(entity: 0, row: 40 + index * 3)
      #expect(found?.toOpaque() == Unmanaged.passUnretained(object).toOpaque())
    }
    // Paged now: a row of a page in use has a place; filling it counts it.
    let (none2, paged) = map.find(entity: 0, row: 41)
    #expect(none2 == nil)
    map.fill(paged, with: Unmanaged.passUnretained(objects[1]))
    #expect(map.count(ofEntity: 0) == objects.count + 1)
    #expect(map.remove(Unmanaged.passUnretained(objects[1]), entity: 0, row: 41))
    // A vacancy found before a removal is stale: filling it looks the row up again.
    let (_, stale) = map.find(entity: 0, row: 2)
    #expect(map.remove(entity: 0, row: 40))
    map.fill(stale, with: Unmanaged.passUnretained(objects[2]))
    #expect(map.count(ofEntity: 0) == objects.count)
    #expect(
      map.handle(entity: 0, row: 2)?.toOpaque() == Unmanaged.passUnretained(objects[2]).toOpaque())
    #expect(map.handle(entity: 0, row: 40) == nil)
    #expect(Set(map.rows(ofEntity: 0)).count == objects.count)
  }

  @Test("a vacancy found before the table grew, or before its page emptied, is looked up again")
  func staleVacancies() {
    let objects = (0..<(IdentityMap.denseThreshold + 4)).map { _ in CCTrip() }
    let map = IdentityMap()
    // A hash table: a vacancy, then enough other rows to grow the table (its entries move).
    map.insert(Unmanaged.passUnretained(objects[0]), entity: 1, row: 1_000)
    let (_, beforeGrowth) = map.find(entity: 1, row: 7)
    for index in 1..<12 {
      map.insert(Unmanaged.passUnretained(objects[index]), entity: 1, row: 1_000 + index)
    }
    map.fill(beforeGrowth, with: Unmanaged.passUnretained(objects[12]))
    #expect(map.count(ofEntity: 1) == 13)
    #expect(
      map.handle(entity: 1, row: 7)?.toOpaque() == Unmanaged.passUnretained(objects[12]).toOpaque())
    // Pages: a vacancy in a page whose last handle then leaves (the page is kept for reuse).
    for index in 0...IdentityMap.denseThreshold {
      map.insert(Unmanaged.passUnretained(objects[index]), entity: 2, row: index)
    }
    let far = 3 * IdentityMap.pageSize
    map.insert(Unmanaged.passUnretained(objects[0]), entity: 2, row: far)
    let (_, beforeEmptied) = map.find(entity: 2, row: far + 1)
    #expect(map.remove(entity: 2, row: far))
    map.fill(beforeEmptied, with: Unmanaged.passUnretained(objects[1]))
    #expect(
      map.handle(entity: 2, row: far + 1)?.toOpaque()
        == Unmanaged.passUnretained(objects[1]).toOpaque())
    // The page kept for reuse comes back clear for another page's rows.
    map.insert(Unmanaged.passUnretained(objects[2]), entity: 2, row: 5 * IdentityMap.pageSize)
    #expect(map.handle(entity: 2, row: 5 * IdentityMap.pageSize + 1) == nil)
    #expect(map.count(ofEntity: 2) == IdentityMap.denseThreshold + 3)
    #expect(Set(map.rows(ofEntity: 2)).count == IdentityMap.denseThreshold + 3)
  }

  @Test("removing a row's handle only when it is the given one")
  func removesOnlyTheGivenHandle() {
    let (first, second) = (CCTrip(), CCTrip())
    let map = IdentityMap()
    map.insert(Unmanaged.passUnretained(first), entity: 1, row: 9)
    map.insert(Unmanaged.passUnretained(second), entity: 1, row: 9)
    #expect(map.count(ofEntity: 1) == 1)
    #expect(!map.remove(Unmanaged.passUnretained(first), entity: 1, row: 9))
    #expect(
      map.handle(entity: 1, row: 9)?.toOpaque() == Unmanaged.passUnretained(second).toOpaque())
    #expect(map.remove(Unmanaged.passUnretained(second), entity: 1, row: 9))
    #expect(map.handle(entity: 1, row: 9) == nil)
    #expect(map.count(ofEntity: 1) == 0)
  }
}

@Suite("Identity map: against a dictionary")
struct IdentityMapDifferentialTests {
  /// Random inserts, replacements, removals (of any handle or of a given one) and compactions
  /// over three entities; row ranges where hash probes collide often, where tables turn dense,
  /// and where rows are far apart.
  @Test("handles spread thinly over many rows stay hashed; dense ones go to pages; emptied, hashed")
  func spreadDecidesPages() {
    let count = 3 * IdentityMap.denseThreshold
    let objects = (0..<count).map { _ in CCTrip() }
    let map = IdentityMap()
    // Entity 0: one handle every 1_000 rows from 3_007, inserted and filled: a hash table.
    let thin = (0..<count).map { 3_007 + $0 * 1_000 }
    for (index, (object, row)) in zip(objects, thin).enumerated() {
      if index % 2 == 0 {
        map.insert(Unmanaged.passUnretained(object), entity: 0, row: row)
      } else {
        let (found, vacancy) = map.find(entity: 0, row: row)
        #expect(found == nil)
        map.fill(vacancy, with: Unmanaged.passUnretained(object))
      }
    }
    #expect(!map.isPaged(entity: 0))
    #expect(map.count(ofEntity: 0) == count)
    #expect(Set(map.rows(ofEntity: 0)) == Set(thin))
    for (object, row) in zip(objects, thin) {
      #expect(
        map.handle(entity: 0, row: row)?.toOpaque() == Unmanaged.passUnretained(object).toOpaque())
      #expect(map.handle(entity: 0, row: row + 1) == nil)
    }
    // Entity 1: every row from 0: pages once past the threshold.
    for (row, object) in objects.enumerated() {
      map.insert(Unmanaged.passUnretained(object), entity: 1, row: row)
    }
    #expect(map.isPaged(entity: 1))
    // Thin rows added to a paged table stay in its pages.
    map.insert(Unmanaged.passUnretained(objects[0]), entity: 1, row: 5_000_000)
    #expect(map.isPaged(entity: 1))
    #expect(map.count(ofEntity: 1) == count + 1)
    // Emptied, the paged table is a hash table again, for thin rows as for any.
    for row in 0..<count { #expect(map.remove(entity: 1, row: row)) }
    #expect(map.isPaged(entity: 1))
    #expect(map.remove(Unmanaged.passUnretained(objects[0]), entity: 1, row: 5_000_000))
    #expect(!map.isPaged(entity: 1))
    #expect(map.count(ofEntity: 1) == 0)
    #expect(map.rows(ofEntity: 1).isEmpty)
    #expect(map.handle(entity: 1, row: 5) == nil)
    for (object, row) in zip(objects, thin) {
      map.insert(Unmanaged.passUnretained(object), entity: 1, row: row)
    }
    #expect(!map.isPaged(entity: 1))
    #expect(Set(map.rows(ofEntity: 1)) == Set(thin))
    // Thin handles that grow dense (rows 0... filled in below the highest) move to pages, with
    // every handle kept.
    for (row, object) in objects.enumerated() {
      map.insert(Unmanaged.passUnretained(object), entity: 0, row: row * 8)
    }
    #expect(map.count(ofEntity: 0) == 2 * count)
    #expect(!map.isPaged(entity: 0), "192 handles over 98_008 rows: still thin")
    // The object each of rows 0..<2 pages holds once the gaps are filled.
    let dense = (0..<(IdentityMap.pageSize * 2)).map {
      $0 % 8 == 0 && $0 / 8 < count ? objects[$0 / 8] : objects[$0 % count]
    }
    for row in dense.indices where row % 8 != 0 || row / 8 >= count {
      map.insert(Unmanaged.passUnretained(dense[row]), entity: 0, row: row)
    }
    #expect(map.isPaged(entity: 0))
    for (object, row) in zip(objects, thin) {
      #expect(
        map.handle(entity: 0, row: row)?.toOpaque() == Unmanaged.passUnretained(object).toOpaque())
    }
    for (row, object) in dense.enumerated() {
      #expect(
        map.handle(entity: 0, row: row)?.toOpaque() == Unmanaged.passUnretained(object).toOpaque())
    }
    #expect(map.count(ofEntity: 0) == count + IdentityMap.pageSize * 2)
  }

  @Test("pages emptied and filled again, round after round and across compactions, come back clear")
  func sparesComeBackClear() {
    let objects = (0..<(IdentityMap.denseThreshold + 1)).map { _ in CCTrip() }
    let map = IdentityMap()
    for round in 0..<50 {
      // Dense rows of page 0, then of page 1, alternately the first rows of the page and the
      // next ones, then emptied: the page kept from the last round serves this one.
      let base = (round % 2) * IdentityMap.pageSize
      let used = round % 2 == 0 ? 0..<objects.count : objects.count..<(2 * objects.count)
      let unused = round % 2 == 0 ? objects.count..<(2 * objects.count) : 0..<objects.count
      for (offset, object) in zip(used, objects) {
        map.insert(Unmanaged.passUnretained(object), entity: 0, row: base + offset)
      }
      #expect(map.isPaged(entity: 0))
      #expect(map.count(ofEntity: 0) == objects.count)
      for offset in unused { #expect(map.handle(entity: 0, row: base + offset) == nil) }
      for offset in used { #expect(map.remove(entity: 0, row: base + offset)) }
      #expect(map.count(ofEntity: 0) == 0)
      if round % 10 == 9 { map.compact() }
    }
  }

  @Test(
    "seeded random operations agree with a dictionary, sparse and dense",
    arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
  func randomOperations(seed: UInt64) {
    let objects = (0..<8).map { _ in CCTrip() }
    var random = SplitMix64(seed: seed)
    let map = IdentityMap()
    var expected: [Int: [Int: ObjectIdentifier]] = [:]
    let span = [64, 4_096, 1 << 20][Int(seed % 3)]
    // Mostly inserts in the first half, so tables cross the dense threshold; then mostly
    // removals, so they empty and are compacted.
    for step in 0..<30_000 {
      let entity = Int.random(in: 0..<3, using: &random)
      let row = Int.random(in: 0..<span, using: &random)
      let choice = Int.random(in: 0..<10, using: &random)
      let removing = step < 15_000 ? choice < 3 : choice < 8
      if removing {
        if Bool.random(using: &random) {
          let removed = map.remove(entity: entity, row: row)
          #expect(removed == (expected[entity]?[row] != nil))
          expected[entity]?[row] = nil
        } else {
          let object = objects[Int.random(in: 0..<objects.count, using: &random)]
          let removed = map.remove(Unmanaged.passUnretained(object), entity: entity, row: row)
          let matches = expected[entity]?[row] == ObjectIdentifier(object)
          #expect(removed == matches)
          if matches { expected[entity]?[row] = nil }
        }
      } else if choice % 2 == 0 {
        let object = objects[Int.random(in: 0..<objects.count, using: &random)]
        map.insert(Unmanaged.passUnretained(object), entity: entity, row: row)
        expected[entity, default: [:]][row] = ObjectIdentifier(object)
      } else {
        // As a fetch registers: look up, then fill the vacancy found, sometimes after another
        // row was inserted or removed in between (the vacancy is then stale).
        let object = objects[Int.random(in: 0..<objects.count, using: &random)]
        let (found, vacancy) = map.find(entity: entity, row: row)
        #expect(found.map { ObjectIdentifier($0.takeUnretainedValue()) } == expected[entity]?[row])
        if Int.random(in: 0..<4, using: &random) == 0 {
          let other = (row + 1 + Int.random(in: 0..<3, using: &random)) % span
          if Bool.random(using: &random) {
            map.insert(Unmanaged.passUnretained(objects[0]), entity: entity, row: other)
            expected[entity, default: [:]][other] = ObjectIdentifier(objects[0])
          } else {
            map.remove(entity: entity, row: other)
            expected[entity]?[other] = nil
          }
        }
        map.fill(vacancy, with: Unmanaged.passUnretained(object))
        expected[entity, default: [:]][row] = ObjectIdentifier(object)
      }
      if step % 1_000 == 999 { map.compact() }
      #expect(map.count(ofEntity: entity) == (expected[entity]?.count ?? 0))
      let probe = Int.random(in: 0..<span, using: &random)
      #expect(
        map.handle(entity: entity, row: probe).map { ObjectIdentifier($0.takeUnretainedValue()) }
          == expected[entity]?[probe])
    }
    for entity in 0..<4 {
      let rows = expected[entity] ?? [:]
      #expect(map.count(ofEntity: entity) == rows.count)
      #expect(Set(map.rows(ofEntity: entity)) == Set(rows.keys))
      for (row, identity) in rows {
        #expect(
          map.handle(entity: entity, row: row).map { ObjectIdentifier($0.takeUnretainedValue()) }
            == identity)
      }
      for row in 0..<min(span, 2_000) {
        #expect(
          map.handle(entity: entity, row: row).map { ObjectIdentifier($0.takeUnretainedValue()) }
            == rows[row])
      }
    }
  }
}
