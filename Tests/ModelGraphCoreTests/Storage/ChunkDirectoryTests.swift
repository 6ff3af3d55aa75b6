import Foundation
import Testing

@testable import ModelGraphCore

@Suite("ChunkDirectory: columns share chunk groups until one side writes")
struct ChunkDirectoryTests {
  /// Rows enough for twelve groups of 16 chunks (a block of 16 groups is 256 chunks).
  private static let rows = 3 * 64 * (1 << AnyColumn.chunkShift) + 123
  /// Rows enough for two blocks of 256 chunks and part of a third.
  private static let blockRows = (2 * 256 + 37) * (1 << AnyColumn.chunkShift) + 5

  @Test("random writes to a chain of copies agree with plain arrays on every side")
  func differential() {
    var random = QueryRandom(seed: 7)
    let first = Column<Int64>()
    first.grow(to: Self.rows)
    var columns: [(column: Column<Int64>, model: [Int64])] = [
      (first, [Int64](repeating: 0, count: Self.rows))
    ]
    for step in 0..<4_000 {
      let pick = Int.random(in: 0..<columns.count, using: &random)
      if step % 200 == 0 {
        let copy = unsafeDowncast(columns[pick].column.copy(), to: Column<Int64>.self)
        columns.append((copy, columns[pick].model))
        continue
      }
      let row = Int.random(in: 0..<Self.rows, using: &random)
      columns[pick].column[row] = Int64(step)
      columns[pick].model[row] = Int64(step)
    }
    for (index, entry) in columns.enumerated() {
      var mismatches = 0
      for row in 0..<Self.rows where entry.column[row] != entry.model[row] { mismatches += 1 }
      #expect(mismatches == 0, "column \(index)")
    }
  }

  @Test("a frozen column's copies write without touching it, and it still reads its values")
  func frozenSource() {
    let column = Column<Int64>()
    column.grow(to: Self.rows)
    column[5] = 1
    column.freeze()
    let a = unsafeDowncast(column.copy(), to: Column<Int64>.self)
    let b = unsafeDowncast(column.copy(), to: Column<Int64>.self)
    a[5] = 2
    b[5] = 3
    b.append(9)
    #expect(column[5] == 1 && a[5] == 2 && b[5] == 3)
    #expect(column.count == Self.rows && b.count == Self.rows + 1)
    #expect(!column.hasSameValue(at: 5, as: a))
    #expect(column.hasSameValue(at: 6, as: a))
  }

  @Test("the source of a copy copies its chunk before writing, so the copy keeps the old value")
  func sourceWritesAfterCopy() {
    let column = Column<Int64>()
    column.grow(to: 10)
    column[3] = 1
    let copy = unsafeDowncast(column.copy(), to: Column<Int64>.self)
    column[3] = 2
    #expect(copy[3] == 1 && column[3] == 2)
  }

  @Test("a chain of versions, each frozen and then copied and written, keeps every value")
  func frozenChain() {
    // Each step is a save: the working column writes, a copy of it is frozen as the new
    // version (which drops its ownership bits), and the working column writes on.
    let working = Column<Int64>()
    working.grow(to: Self.rows)
    var versions: [(column: Column<Int64>, model: [Int64])] = []
    var model = [Int64](repeating: 0, count: Self.rows)
    var random = QueryRandom(seed: 11)
    for step in 1...40 {
      for _ in 0..<3 {
        let row = Int.random(in: 0..<Self.rows, using: &random)
        working[row] = Int64(step)
        model[row] = Int64(step)
      }
      if step % 5 == 0 { working.append(Int64(-step)) }
      if step % 5 == 0 { model.append(Int64(-step)) }
      let published = unsafeDowncast(working.copy(), to: Column<Int64>.self)
      published.freeze()
      // Freezing twice (a newer version keeps the column) changes nothing.
      published.freeze()
      #expect(published.sharesAllChunks(with: working))
      versions.append((published, model))
    }
    // A reader's copy of an old version writes without touching it.
    let reader = unsafeDowncast(versions[3].column.copy(), to: Column<Int64>.self)
    reader[0] = 99
    for (index, version) in versions.enumerated() {
      expectColumn(version.column, holds: version.model, "version \(index)")
    }
    #expect(reader[0] == 99 && versions[3].column[0] == versions[3].model[0])
  }

  @Test(
    "a column written after it was frozen (as a journal replay does) and frozen again is shared safely"
  )
  func writtenAfterFreeze() {
    let column = Column<Int64>()
    column.grow(to: Self.rows)
    column[7] = 1
    column.freeze()
    // Written by the only holder after the freeze, then frozen again before it is published.
    column[7] = 2
    column[Self.rows - 1] = 3
    column.freeze()
    let copy = unsafeDowncast(column.copy(), to: Column<Int64>.self)
    copy[7] = 4
    copy[Self.rows - 1] = 5
    #expect(column[7] == 2 && column[Self.rows - 1] == 3)
    #expect(copy[7] == 4 && copy[Self.rows - 1] == 5)
    #expect(column.hasSameValue(at: 8, as: copy) && !column.hasSameValue(at: 7, as: copy))
  }

  @Test(
    "a copy of a one-block column reads its block's own page, and keeps reading right once it writes or grows a second block"
  )
  func oneBlockCopyGrows() {
    // Every chunk but the last of one block of 256: the copy borrows the block's page.
    let rows = 255 * (1 << AnyColumn.chunkShift) + 17
    let column = Column<Int64>()
    column.grow(to: rows)
    column[3] = 1
    column[rows - 1] = 2
    column.freeze()
    let copy = unsafeDowncast(column.copy(), to: Column<Int64>.self)
    let other = unsafeDowncast(column.copy(), to: Column<Int64>.self)
    // The copy's first write copies the block: it must read the new block's page from then on.
    copy[3] = 10
    // Growing past 256 chunks adds a second block: the copy needs a list of two pages.
    let grown = 258 * (1 << AnyColumn.chunkShift) + 5
    copy.grow(to: grown)
    copy[grown - 1] = 11
    copy[rows - 1] = 12
    #expect(column.count == rows && column[3] == 1 && column[rows - 1] == 2)
    #expect(other[3] == 1 && other[rows - 1] == 2)
    #expect(copy.count == grown && copy[3] == 10 && copy[rows - 1] == 12 && copy[grown - 1] == 11)
    #expect(copy[rows] == 0 && copy[4] == 0)
    // A copy of the grown copy (two blocks) and a copy of that one's source still agree.
    copy.freeze()
    let again = unsafeDowncast(copy.copy(), to: Column<Int64>.self)
    again[grown - 1] = 13
    #expect(copy[grown - 1] == 11 && again[grown - 1] == 13 && again[3] == 10)
  }

  @Test(
    "copies of a column of several blocks agree with plain arrays, and share what they did not write"
  )
  func severalBlocks() {
    var random = QueryRandom(seed: 23)
    let first = Column<UInt32>()
    first.grow(to: Self.blockRows)
    var columns: [(column: Column<UInt32>, model: [UInt32])] = [
      (first, [UInt32](repeating: 0, count: Self.blockRows))
    ]
    for step in 1...600 {
      let pick = Int.random(in: 0..<columns.count, using: &random)
      if step % 100 == 0 {
        columns[pick].column.freeze()
        let copy = unsafeDowncast(columns[pick].column.copy(), to: Column<UInt32>.self)
        #expect(copy.sharesAllChunks(with: columns[pick].column))
        columns.append((copy, columns[pick].model))
        continue
      }
      if step % 37 == 0 {
        columns[pick].column.append(UInt32(step))
        columns[pick].model.append(UInt32(step))
        continue
      }
      let row = Int.random(in: 0..<columns[pick].model.count, using: &random)
      columns[pick].column[row] = UInt32(step)
      columns[pick].model[row] = UInt32(step)
    }
    for (index, entry) in columns.enumerated() {
      expectColumn(entry.column, holds: entry.model, "column \(index)")
    }
    // A copy written in one chunk of the second block shares every other group with its source.
    let source = columns[0].column
    source.freeze()
    let copy = unsafeDowncast(source.copy(), to: Column<UInt32>.self)
    let written = 300 * (1 << AnyColumn.chunkShift) + 9
    copy[written] = 7
    let writtenGroup = 300 / ChunkDirectory.chunksPerGroup
    for group in 0..<(source.chunkCount / ChunkDirectory.chunksPerGroup) {
      #expect(
        copy.sharesChunkGroup(group, with: source) == (group != writtenGroup), "group \(group)")
    }
    #expect(!copy.sharesAllChunks(with: source))
    #expect(copy.hasSameValue(at: written + 1, as: source))
    #expect(!copy.hasSameValue(at: written, as: source) || source[written] == 7)
  }
}
