import Testing

@testable import ModelGraph

@Suite("Identity map: the handles of one entity's rows")
struct IdentityTableTests {
  @Test("few handles in a dictionary, many in an array by row; the same answers in both")
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
