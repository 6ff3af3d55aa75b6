import Testing

@testable import ModelGraphCore

private let chunkSize = 1 << AnyColumn.chunkShift

/// The chunk objects of `directory`, by index.
private func chunks(_ directory: ChunkDirectory) -> [AnyObject] {
  (0..<directory.count).map { directory.chunk($0) }
}

@Suite("Packing the chunks a save appended")
struct ChunkPackingTests {
  @Test("copies replace only the appended chunks held alone; every value stays, in both columns")
  func elementColumn() {
    let base = Column<Int64>()
    base.grow(to: 3 * chunkSize)
    for row in 0..<base.count { base[row] = Int64(row) }
    base.freeze()
    let working = base.copy() as! Column<Int64>
    working.grow(to: 12 * chunkSize + 5)
    // Writes to the inherited chunks too: copies the column owns, but did not append.
    for row in 0..<working.count { working[row] = Int64(row * 7) }
    let before = chunks(working.directory)
    #expect(working.packedCopies(from: 3, minimum: 11).isEmpty)
    let copies = working.packedCopies(from: 3, minimum: 10)
    let indices = copies.chunks.map { $0.index }
    #expect(indices == Array(3..<13))
    working.install(copies)
    let after = chunks(working.directory)
    #expect((0..<3).allSatisfy { after[$0] === before[$0] })
    #expect((3..<13).allSatisfy { after[$0] !== before[$0] })
    #expect((0..<working.count).allSatisfy { working[$0] == Int64($0 * 7) })
    #expect((0..<base.count).allSatisfy { base[$0] == Int64($0) })
    // Writes after the install go to the copies.
    working[12 * chunkSize] = -1
    #expect(working[12 * chunkSize] == -1)
    // Once a copy shares the chunks (a published table), none is held alone.
    let published = working.copy() as! Column<Int64>
    #expect(working.packedCopies(from: 0, minimum: 1).isEmpty)
    #expect(published[5 * chunkSize + 3] == Int64((5 * chunkSize + 3) * 7))
  }

  @Test("string copies keep nils, non-ASCII and out-of-line values, without spare capacity")
  func stringColumn() {
    let column = Column<String?>()
    column.strings!.inlineLimit = 40
    column.grow(to: 9 * chunkSize)
    var model = [String?](repeating: nil, count: column.count)
    for row in 0..<column.count {
      let value: String? =
        switch row % 5 {
        case 0: nil
        case 1: "Stay \(row)"
        case 2: "Café \(row) ✓"
        case 3: String(repeating: "long ", count: 10) + "\(row)"
        default: ""
        }
      column[row] = value
      model[row] = value
    }
    let copies = column.packedCopies(from: 0, minimum: 9)
    #expect(copies.chunks.count == 9)
    column.install(copies)
    #expect((0..<column.count).allSatisfy { column[$0] == model[$0] })
    for index in 0..<9 {
      let chunk = column.strings!.chunk(index)
      #expect(chunk.byteCapacity == chunk.used)
    }
    column[3] = "rewritten"
    #expect(column[3] == "rewritten" && column[4] == model[4])
  }

  @Test("to-many copies hold the same lists, compacted")
  func keyListColumn() {
    let column = KeyListColumn()
    column.grow(to: 8 * chunkSize)
    var model = [[ObjectKey]](repeating: [], count: column.count)
    for round in 0..<2 {
      for row in 0..<column.count {
        let keys = (0..<((row + round) % 4)).map {
          ObjectKey(entity: $0, row: row + round, generation: 1)
        }
        column[row] = keys
        model[row] = keys
      }
    }
    let copies = column.packedCopies(from: 0, minimum: 8)
    #expect(copies.chunks.count == 8)
    column.install(copies)
    #expect((0..<column.count).allSatisfy { column[$0] == model[$0] })
    #expect(column.chunkForLoading(0).garbage == 0)
    column.append(ObjectKey(entity: 9, row: 9, generation: 9), at: 0)
    #expect(column[0] == model[0] + [ObjectKey(entity: 9, row: 9, generation: 9)])
  }
}
