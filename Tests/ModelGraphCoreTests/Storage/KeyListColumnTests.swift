import Foundation
import Testing

@testable import ModelGraphCore

private let chunkSize = 1 << AnyColumn.chunkShift

private func key(_ value: Int) -> ObjectKey {
  ObjectKey(entity: value % 3, row: value, generation: UInt32(value % 5))
}

/// A column and the plain arrays it must always equal.
private struct Modelled {
  var column = KeyListColumn()
  var model: [[ObjectKey]] = []

  mutating func grow(to count: Int) {
    column.grow(to: count)
    while model.count < count { model.append([]) }
  }

  func check(_ note: String) {
    #expect(column.count == model.count, "\(note): count")
    for row in model.indices where column[row] != model[row] {
      Issue.record("\(note): row \(row) holds \(column[row]), expected \(model[row])")
      return
    }
  }
}

@Suite("KeyListColumn: to-many lists in one arena per chunk")
struct KeyListColumnTests {
  @Test("random sets, appends and clears agree with plain arrays, across copies")
  func differential() {
    for seed in 1...6 {
      var random = QueryRandom(seed: UInt64(seed))
      var live = Modelled()
      live.grow(to: chunkSize + 300)
      var copies: [Modelled] = []
      for step in 0..<6_000 {
        let row = Int.random(in: 0..<live.model.count, using: &random)
        switch Int.random(in: 0..<10, using: &random) {
        case 0...3:
          live.column.append(key(step), at: row)
          live.model[row].append(key(step))
        case 4...6:
          let keys = (0..<Int.random(in: 0...6, using: &random)).map { key(step * 7 + $0) }
          live.column[row] = keys
          live.model[row] = keys
        case 7:
          live.column.clear(row: row)
          live.model[row] = []
        case 8:
          // A copy shares chunks; writes to either side must not show in the other.
          copies.append(Modelled(column: live.column.copy() as! KeyListColumn, model: live.model))
          if copies.count > 3 { copies.removeFirst() }
        default:
          let from = Int.random(in: 0..<live.model.count, using: &random)
          if let source = copies.last {
            live.column.copyValue(from: source.column, fromRow: from, toRow: row)
            live.model[row] = source.model[from]
          } else {
            live.column.copyValue(from: live.column, fromRow: from, toRow: row)
            live.model[row] = live.model[from]
          }
        }
      }
      live.check("seed \(seed)")
      for (index, copy) in copies.enumerated() { copy.check("seed \(seed) copy \(index)") }
    }
  }

  @Test("a list that keeps growing at the end of its chunk grows in place")
  func appendInPlace() {
    let column = KeyListColumn()
    column.grow(to: 4)
    column[1] = [key(1)]
    for value in 2..<2_000 { column.append(key(value), at: 1) }
    #expect(column.keyCount(at: 1) == 1_999)
    #expect(column[1] == (1..<2_000).map(key))
    #expect(column[0].isEmpty && column[2].isEmpty)
  }

  @Test("a chunk's clone takes a new short list without growing its arena")
  func cloneHasRoomForAWrite() {
    let chunk = KeyListChunk()
    var keys = [key(0)]
    for offset in 0..<chunkSize where offset % 10 != 0 {
      keys[0] = key(offset)
      keys.withUnsafeBufferPointer { chunk.set($0, at: offset) }
    }
    let copy = chunk.clone()
    let capacity = copy.arenaCapacity
    #expect(capacity > copy.used)
    keys[0] = key(5_000)
    keys.withUnsafeBufferPointer { copy.set($0, at: 10) }
    #expect(copy.arenaCapacity == capacity)
    #expect(Array(copy.keys(at: 10)) == [key(5_000)])
    #expect(Array(copy.keys(at: 11)) == [key(11)])
    #expect(chunk.keys(at: 10).isEmpty)
  }

  @Test("a new chunk's arena starts at the size of the last chunk's keys")
  func newChunkReserves() {
    let column = KeyListColumn()
    column.grow(to: chunkSize)
    for row in 0..<chunkSize { column[row] = [key(3 * row), key(3 * row + 1), key(3 * row + 2)] }
    column.grow(to: chunkSize + 1)
    let fresh = column.chunkForLoading(1)
    #expect(fresh.arenaCapacity >= 3 * chunkSize)
    #expect(fresh.arenaCapacity <= 3 * chunkSize + 3 * chunkSize / 16)
    // Lists like the last chunk's fill it without growing the arena.
    let capacity = fresh.arenaCapacity
    column.grow(to: 2 * chunkSize)
    for row in chunkSize..<(2 * chunkSize) {
      column[row] = [key(3 * row), key(3 * row + 1), key(3 * row + 2)]
    }
    #expect(column.chunkForLoading(1).arenaCapacity == capacity)
    #expect(
      column[2 * chunkSize - 1] == [
        key(6 * chunkSize - 3), key(6 * chunkSize - 2), key(6 * chunkSize - 1),
      ])
  }

  @Test("rewriting lists leaves garbage that compaction reclaims, values intact")
  func compaction() {
    let column = KeyListColumn()
    column.grow(to: chunkSize)
    for round in 0..<50 {
      for row in 0..<chunkSize { column[row] = [key(row), key(row + round + 1)] + [key(round)] }
    }
    for row in 0..<chunkSize { #expect(column[row] == [key(row), key(row + 50), key(49)]) }
  }

  @Test("hasSameValue is true for shared chunks and equal lists, false after a change")
  func sameValue() {
    let column = KeyListColumn()
    column.grow(to: 3)
    column[0] = [key(1), key(2)]
    let copy = unsafeDowncast(column.copy(), to: KeyListColumn.self)
    #expect(column.hasSameValue(at: 0, as: copy))
    copy[0] = [key(1), key(2)]
    #expect(column.hasSameValue(at: 0, as: copy))
    copy.append(key(3), at: 0)
    #expect(!column.hasSameValue(at: 0, as: copy))
    #expect(column[0] == [key(1), key(2)])
  }

  @Test("format 3 bytes are those of a column of [ObjectKey]; every format reads back")
  func encoding() throws {
    let lists = KeyListColumn()
    let arrays = Column<[ObjectKey]>()
    lists.grow(to: chunkSize + 5)
    arrays.grow(to: chunkSize + 5)
    for row in stride(from: 0, to: chunkSize + 5, by: 3) {
      let keys = (0..<(row % 4)).map { key(row + $0) }
      lists[row] = keys
      arrays[row] = keys
    }
    var mine = ByteWriter()
    lists.encode(into: &mine, format: 3)
    var theirs = ByteWriter()
    arrays.encode(into: &theirs, format: 3)
    let same = mine.bytes == theirs.bytes
    #expect(same)

    for format in [UInt32(3), SnapshotFormat.version] {
      var writer = ByteWriter()
      lists.encode(into: &writer, format: format)
      let decoded = KeyListColumn()
      try writer.bytes.withUnsafeBytes { raw in
        var reader = ByteReader(raw, fileOffset: 0, path: "test", section: "column")
        try decoded.decode(from: &reader, format: format)
        #expect(reader.isAtEnd)
      }
      #expect(decoded.count == lists.count)
      var differing = 0
      for row in 0..<lists.count where decoded[row] != lists[row] { differing += 1 }
      #expect(differing == 0, "format \(format)")
    }
  }
}
