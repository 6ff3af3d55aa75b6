import Testing

@testable import ModelGraph

@Suite("Identity map: the handles of one entity's rows")
struct IdentityTableTests {
  @Test("few handles in a hash map, many in an array by row; the same answers in both")
  func sparseThenDense() {
    let objects = (0..<(IdentityTable.denseThreshold + 100)).map { _ in CCTrip() }
    var table = IdentityTable()
    var expected: [Int: ObjectIdentifier] = [:]
    for (index, object) in objects.enumerated() {
      let row = 1_000_000 - index * 997
      table[row] = Unmanaged.passUnretained(object)
      expected[row] = ObjectIdentifier(object)
      if index == 10 || index == objects.count - 1 {
        #expect(table.count == expected.count)
        #expect(Set(table.rows) == Set(expected.keys))
        for (row, identity) in expected {
          #expect(table[row].map { ObjectIdentifier($0.takeUnretainedValue()) } == identity)
        }
        #expect(table[3] == nil)
      }
    }
    for row in expected.keys { table[row] = nil }
    table[5] = nil
    #expect(table.count == 0)
    #expect(table.rows.isEmpty)
    table.compact()
    table[7] = Unmanaged.passUnretained(objects[0])
    #expect(table.count == 1)
    #expect(table.rows == [7])
  }
}

@Suite("Identity map: a dense table growing past its end")
struct IdentityTableGrowthTests {
  @Test("rows past the dense array's end grow it in place; clearing them does not grow it")
  func growsPastItsEnd() {
    let objects = (0..<(IdentityTable.denseThreshold + 1)).map { _ in CCTrip() }
    var table = IdentityTable()
    // Rows 0...threshold: the last insertion turns the table dense, sized to these rows.
    for (row, object) in objects.enumerated() { table[row] = Unmanaged.passUnretained(object) }
    #expect(table.count == objects.count)
    // Clearing a row far past the end changes nothing.
    table[1_000_000] = nil
    #expect(table.count == objects.count)
    #expect(table[1_000_000] == nil)
    // Rows far past the end, then just past the end: each lands where asked.
    table[100_000] = Unmanaged.passUnretained(objects[1])
    table[objects.count] = Unmanaged.passUnretained(objects[2])
    #expect(table.count == objects.count + 2)
    #expect(table[100_000]?.toOpaque() == Unmanaged.passUnretained(objects[1]).toOpaque())
    #expect(table[objects.count]?.toOpaque() == Unmanaged.passUnretained(objects[2]).toOpaque())
    #expect(table[99_999] == nil)
    #expect(table[100_001] == nil)
    #expect(Set(table.rows) == Set(Array(0...objects.count) + [100_000]))
  }
}

@Suite("Identity map: the sparse row map against a dictionary")
struct SparseRowMapTests {
  @Test("random inserts, replacements and removals agree with a dictionary", arguments: [1, 2, 3])
  func randomOperations(seed: UInt64) {
    let objects = (0..<8).map { _ in CCTrip() }
    var random = SplitMix64(seed: seed)
    var map = SparseRowMap()
    var expected: [Int: ObjectIdentifier] = [:]
    // Rows from a narrow range collide often, so removals shift long probe runs.
    let span = [64, 4_096, 1 << 40][Int(seed % 3)]
    for _ in 0..<20_000 {
      let row = Int.random(in: 0..<span, using: &random)
      if Int.random(in: 0..<3, using: &random) == 0 {
        let removed = map.remove(row: row)
        #expect(removed.map { ObjectIdentifier($0.takeUnretainedValue()) } == expected[row])
        expected[row] = nil
      } else {
        let object = objects[Int.random(in: 0..<objects.count, using: &random)]
        let old = map.update(Unmanaged.passUnretained(object), forRow: row)
        #expect(old.map { ObjectIdentifier($0.takeUnretainedValue()) } == expected[row])
        expected[row] = ObjectIdentifier(object)
      }
      #expect(map.count == expected.count)
    }
    for row in 0..<min(span, 5_000) {
      #expect(map[row].map { ObjectIdentifier($0.takeUnretainedValue()) } == expected[row])
    }
    #expect(Set(map.entries.map(\.row)) == Set(expected.keys))
  }
}
