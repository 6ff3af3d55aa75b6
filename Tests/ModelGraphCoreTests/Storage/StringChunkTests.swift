import Foundation
import Testing

@testable import ModelGraphCore

@Suite("String columns: UTF-8 arenas per chunk, copied on write")
struct StringChunkTests {
  private static let rows = StringChunk.capacity

  /// The rows of `chunk` as optional strings.
  private func contents(_ chunk: StringChunk, count: Int = rows) -> [String?] {
    (0..<count).map { chunk.optionalString($0) }
  }

  @Test("rows written in order, then out of order, read back; unwritten rows are empty")
  func writes() {
    let chunk = StringChunk()
    chunk.set("alpha", at: 0)
    chunk.set("βeta", at: 1)
    chunk.set("gamma", at: 5)
    #expect(chunk.string(0) == "alpha")
    #expect(chunk.string(1) == "βeta")
    #expect(chunk.string(2) == "")
    #expect(chunk.string(5) == "gamma")
    #expect(chunk.string(Self.rows - 20) == "")
    chunk.set("delta", at: 3)
    #expect(chunk.string(3) == "delta")
    #expect(chunk.string(5) == "gamma")
    #expect(chunk.used == "alphaβetadeltagamma".utf8.count)
  }

  @Test("overwriting with a longer or shorter value moves only the later rows' bytes")
  func overwrite() {
    let chunk = StringChunk()
    let values = ["one", "two", "three", "four", "five"]
    for (row, value) in values.enumerated() { chunk.set(value, at: row) }
    chunk.set("a much longer second value", at: 1)
    chunk.set("3", at: 2)
    chunk.set("", at: 4)
    #expect(
      contents(chunk, count: 6) == ["one", "a much longer second value", "3", "four", "", ""])
    #expect(chunk.used == "onea much longer second value3four".utf8.count)
    chunk.set("ONE", at: 0)
    #expect(contents(chunk, count: 4) == ["ONE", "a much longer second value", "3", "four"])
  }

  @Test("nil is distinct from the empty string; an optional chunk starts all nil")
  func nils() {
    let optional = StringChunk(isOptional: true)
    #expect(optional.optionalString(7) == nil)
    optional.set("", at: 7)
    optional.set("x", at: 8)
    #expect(optional.optionalString(7) == "")
    #expect(optional.optionalString(8) == "x")
    optional.set(nil, at: 8)
    #expect(optional.optionalString(8) == nil)
    #expect(optional.used == 0)
    let plain = StringChunk()
    #expect(plain.optionalString(7) == "")
  }

  @Test(
    "clearing a set of rows at once leaves what clearing them one by one leaves",
    arguments: [false, true])
  func clearRows(toNil: Bool) {
    var seed: UInt64 = toNil ? 7 : 11
    func next(_ bound: Int) -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((seed >> 33) % UInt64(bound))
    }
    let words = ["", "a", "ünïcode", "carriage\r\nreturn", "a longer value of some bytes"]
    for round in 0..<20 {
      let batched = StringChunk(isOptional: toNil)
      let single = StringChunk(isOptional: toNil)
      let filled = [0, 1, Self.rows / 3, Self.rows][round % 4]
      for row in 0..<filled {
        let value: String? = next(6) == 0 ? nil : words[next(words.count)] + "\(row)"
        batched.set(value, at: row)
        single.set(value, at: row)
      }
      // Rows to clear, ascending, some past the filled rows; one repeated.
      var rows = (0..<Self.rows).filter { _ in next(4) == 0 }
      if let first = rows.first { rows.insert(first, at: 0) }
      batched.clear(rows, toNil: toNil)
      for row in rows { single.set(toNil ? nil : "", at: row) }
      #expect(contents(batched) == contents(single), "round \(round)")
      #expect(batched.used == single.used, "round \(round)")
      for row in 0..<Self.rows {
        #expect(batched.isSimple(row) == single.isSimple(row), "round \(round) row \(row)")
      }
    }
  }

  @Test("the simple-ASCII bit follows each row's bytes")
  func simpleBits() {
    let chunk = StringChunk()
    chunk.set("plain", at: 0)
    chunk.set("Café", at: 1)
    chunk.set("x\r\ny", at: 2)
    #expect(chunk.isSimple(0))
    #expect(!chunk.isSimple(1))
    #expect(!chunk.isSimple(2))
    chunk.set("Cafe", at: 1)
    #expect(chunk.isSimple(1))
  }

  @Test("the arena grows past many long values and fits them once the chunk is full")
  func growth() {
    let chunk = StringChunk()
    let values = (0..<Self.rows).map { "a longer value, number \($0), past the small-string size" }
    for (row, value) in values.enumerated() { chunk.set(value, at: row) }
    #expect(contents(chunk) == values)
    let total = values.reduce(0) { $0 + $1.utf8.count }
    #expect(chunk.used == total)
    #expect(chunk.byteCapacity >= total && chunk.byteCapacity <= total + total / 8)
  }

  @Test("a clone is independent of its source")
  func cloneIsIndependent() {
    let chunk = StringChunk()
    for row in 0..<10 { chunk.set("row \(row)", at: row) }
    let copy = chunk.clone()
    copy.set("changed", at: 3)
    chunk.set("other", at: 4)
    #expect(chunk.string(3) == "row 3")
    #expect(copy.string(3) == "changed")
    #expect(copy.string(4) == "row 4")
    #expect(chunk.string(4) == "other")
  }

  @Test("a clone takes a short write into an empty row without copying its arena again")
  func cloneHasRoomForAWrite() {
    let chunk = StringChunk()
    for row in 0..<Self.rows where row % 10 != 0 { chunk.set("value \(row)", at: row) }
    chunk.shrinkToFit()
    let copy = chunk.clone()
    let capacity = copy.byteCapacity
    #expect(capacity > copy.used)
    copy.set("New 12345", at: 10)
    #expect(copy.byteCapacity == capacity)
    #expect(copy.string(10) == "New 12345")
    #expect(copy.string(11) == "value 11" && copy.string(9) == "value 9")
    #expect(chunk.string(10) == "")
  }

  @Test("column copies share chunks until one writes; a frozen column never changes")
  func copyOnWrite() {
    let column = Column<String>()
    column.grow(to: 3 * Self.rows)
    for row in 0..<column.count { column[row] = "v\(row)" }
    column.freeze()
    let copy = unsafeDowncast(column.copy(), to: Column<String>.self)
    #expect(copy.sharesAllChunks(with: column))
    copy[5] = "changed"
    #expect(column[5] == "v5")
    #expect(copy[5] == "changed")
    #expect(!copy.sharesAllChunks(with: column))
    #expect(copy.chunkStorage(at: 0) != column.chunkStorage(at: 0))
    #expect(copy.chunkStorage(at: 1) == column.chunkStorage(at: 1))
    #expect(copy.hasSameValue(at: Self.rows + 1, as: column))
    #expect(!copy.hasSameValue(at: 5, as: column))
  }

  @Test("random writes to a chain of copies agree with plain arrays on every side")
  func differential() {
    var random = QueryRandom(seed: 11)
    let rows = 2 * Self.rows + 77
    let pool: [String?] = [nil, "", "a", "Café", "e\u{301}", "x\r\ny", "a longer value of bytes"]
    let first = Column<String?>()
    first.grow(to: rows)
    var columns: [(column: Column<String?>, model: [String?])] = [
      (first, [String?](repeating: nil, count: rows))
    ]
    for step in 0..<3_000 {
      let pick = Int.random(in: 0..<columns.count, using: &random)
      if step % 300 == 0 {
        columns[pick].column.freeze()
        let copy = unsafeDowncast(columns[pick].column.copy(), to: Column<String?>.self)
        columns.append((copy, columns[pick].model))
        continue
      }
      let row = Int.random(in: 0..<rows, using: &random)
      let value = pool.randomElement(using: &random)!.map { "\($0)\(step % 7)" }
      columns[pick].column[row] = value
      columns[pick].model[row] = value
    }
    for (index, entry) in columns.enumerated() {
      let mismatches = (0..<rows).filter { entry.column[$0] != entry.model[$0] }
      #expect(mismatches.isEmpty, "column \(index)")
    }
  }

  @Test("a row has the same value in two columns exactly when String?'s == says so")
  func sameValue() {
    let pool: [String?] = [
      nil, "", "a", "b", "é", "e\u{301}", "K", "\u{212A}", "x\r\ny", "x\ny", "a long value",
    ]
    let first = Column<String?>()
    first.stringStorage.inlineLimit = 4
    let rows = pool.count * pool.count
    first.grow(to: rows + Self.rows)
    for row in 0..<rows { first[row] = pool[row / pool.count] }
    first.freeze()
    let second = unsafeDowncast(first.copy(), to: Column<String?>.self)
    for row in 0..<rows { second[row] = pool[row % pool.count] }
    for row in 0..<rows {
      #expect(
        first.hasSameValue(at: row, as: second) == (first[row] == second[row]),
        "\(String(describing: first[row])) / \(String(describing: second[row]))")
    }
    // The chunk past the rewritten rows is still shared.
    #expect(first.hasSameValue(at: rows + Self.rows - 1, as: second))
  }
}
