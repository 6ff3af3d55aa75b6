import Foundation
import Testing

@testable import ModelGraphCore

/// A save's first write to a column copies the block that leads to the chunk: the copy takes
/// only the addresses of the chunks the block holds, and the chunks appended to it afterwards
/// get theirs as they come.
@Suite("ChunkDirectory: a copied block holds the addresses of its chunks, and of those appended")
struct BlockCopyTests {
  private static let chunkRows = 1 << AnyColumn.chunkShift

  @Test(
    "saves that write and append across group boundaries of a small block agree with plain arrays"
  )
  func writeAndAppendAcrossGroups() {
    // Each step is a save: the working column writes a few rows (copying the block the first
    // time after a publish), appends rows into new chunks and groups, then a frozen copy of it
    // is the new version.
    var random = QueryRandom(seed: 31)
    let working = Column<Int64>()
    var model: [Int64] = []
    var versions: [(column: Column<Int64>, model: [Int64])] = []
    for step in 1...60 {
      for _ in 0..<2 where !model.isEmpty {
        let row = Int.random(in: 0..<model.count, using: &random)
        working[row] = Int64(step)
        model[row] = Int64(step)
      }
      // Between a quarter of a chunk and three chunks: the block grows group by group.
      let appended = Int.random(in: Self.chunkRows / 4...(3 * Self.chunkRows), using: &random)
      working.grow(to: model.count + appended)
      model += Array(repeating: 0, count: appended)
      let last = model.count - 1
      working[last] = Int64(-step)
      model[last] = Int64(-step)
      let published = unsafeDowncast(working.copy(), to: Column<Int64>.self)
      published.freeze()
      versions.append((published, model))
    }
    #expect(model.count > 16 * Self.chunkRows, "the block grew past its first group")
    versions.append((working, model))
    for (index, version) in versions.enumerated() {
      expectColumn(version.column, holds: version.model, "version \(index)")
    }
  }

  @Test("a copy of a copied block that grew reads every chunk, old and appended")
  func copyOfGrownCopy() {
    let column = Column<UInt32>()
    // Two full groups and three chunks of a third.
    let rows = 35 * Self.chunkRows
    column.grow(to: rows)
    var model = [UInt32](repeating: 0, count: rows)
    for row in stride(from: 0, to: rows, by: 97) {
      column[row] = UInt32(row)
      model[row] = UInt32(row)
    }
    column.freeze()
    let first = unsafeDowncast(column.copy(), to: Column<UInt32>.self)
    var firstModel = model
    first[5] = 1
    firstModel[5] = 1
    // Into a fourth group, chunk by chunk.
    let grown = 50 * Self.chunkRows + 3
    first.grow(to: grown)
    firstModel += Array(repeating: 0, count: grown - rows)
    for row in stride(from: rows, to: grown, by: Self.chunkRows / 2) {
      first[row] = UInt32(row)
      firstModel[row] = UInt32(row)
    }
    first.freeze()
    let second = unsafeDowncast(first.copy(), to: Column<UInt32>.self)
    var secondModel = firstModel
    second[grown - 1] = 2
    secondModel[grown - 1] = 2
    for (name, column, model) in [
      ("source", column, model), ("first", first, firstModel), ("second", second, secondModel),
    ] {
      expectColumn(column, holds: model, name)
    }
  }

  @Test(
    "a copy shares all chunks with its source until either writes to the first block or a later one"
  )
  func sharesUntilWrite() {
    // Two blocks: the first is held inline, the second in the list of the others.
    let rows = 300 * Self.chunkRows
    let column = Column<Int64>()
    column.grow(to: rows)
    column.freeze()
    for row in [5, 260 * Self.chunkRows + 1] {
      let a = unsafeDowncast(column.copy(), to: Column<Int64>.self)
      let b = unsafeDowncast(a.copy(), to: Column<Int64>.self)
      #expect(a.sharesAllChunks(with: column) && b.sharesAllChunks(with: a), "row \(row)")
      b[row] = 1
      #expect(!b.sharesAllChunks(with: a), "row \(row)")
      #expect(a.sharesAllChunks(with: column), "row \(row)")
      a[row + 1] = 2
      #expect(!a.sharesAllChunks(with: column), "row \(row)")
      #expect(column[row] == 0 && column[row + 1] == 0, "row \(row)")
      #expect(a[row] == 0 && a[row + 1] == 2 && b[row] == 1 && b[row + 1] == 0, "row \(row)")
    }
    // Growing by a chunk is a change too, and so is growing into a new block.
    let grown = unsafeDowncast(column.copy(), to: Column<Int64>.self)
    grown.grow(to: rows + 1)
    #expect(!grown.sharesAllChunks(with: column))
    let small = Column<Int64>()
    small.grow(to: 256 * Self.chunkRows)
    small.freeze()
    let second = unsafeDowncast(small.copy(), to: Column<Int64>.self)
    second.append(7)
    #expect(!second.sharesAllChunks(with: small) && small.count == 256 * Self.chunkRows)
    #expect(second[256 * Self.chunkRows] == 7 && second[0] == 0)
    // Two empty columns hold the same (no) chunks.
    #expect(Column<Int64>().sharesAllChunks(with: Column<Int64>()))
  }
}
