import Foundation
import Testing

@testable import ModelGraphCore

/// Values longer than a chunk's inline limit are held out of line, so no chunk's arena passes
/// what its 32-bit offsets reach. The tests lower the limit to a few bytes, which stands for
/// the real one (about 4 MiB), a size tests cannot fill a chunk with.
@Suite("String columns: values over the inline limit, held out of line")
struct StringChunkOutOfLineTests {
  private static let rows = StringChunk.capacity
  private static let limit = 4

  /// The rows of `chunk` as optional strings.
  private func contents(_ chunk: StringChunk, count: Int = rows) -> [String?] {
    (0..<count).map { chunk.optionalString($0) }
  }

  @Test("the default limit keeps a full chunk of inline values within 32-bit offsets")
  func defaultLimit() {
    #expect(StringChunk.inlineLimit * StringChunk.capacity <= Int(UInt32.max))
    #expect(StringChunk.inlineLimit >= 1 << 20)
    #expect(StringColumnStorage(isOptional: false).inlineLimit == StringChunk.inlineLimit)
  }

  @Test("long values read back exactly, out of line, and take no arena bytes")
  func writes() {
    let chunk = StringChunk()
    let values = ["abc", "abcdefgh", "Ünïcödé", "x\r\ny", "e\u{301}e\u{301}", "", "abcd"]
    for (row, value) in values.enumerated() {
      chunk.set(value, at: row, inlineLimit: Self.limit)
    }
    let far = StringChunk.capacity - 20  // past the filled rows, inside the chunk
    chunk.set("written past the filled rows", at: far, inlineLimit: Self.limit)
    #expect(contents(chunk, count: values.count) == values)
    #expect(chunk.string(far) == "written past the filled rows")
    #expect(chunk.string(far - 1) == "" && chunk.string(far + 1) == "")
    #expect(chunk.used == "abc".utf8.count + "x\r\ny".utf8.count + "abcd".utf8.count)
    for (row, value) in values.enumerated() {
      #expect(chunk.isOutOfLine(row) == (value.utf8.count > Self.limit), "row \(row)")
      #expect(chunk.utf8Count(row) == value.utf8.count, "row \(row)")
      #expect(chunk.withBytes(row) { Array($0) } == Array(value.utf8), "row \(row)")
      // Out-of-line rows are never simple: the arena does not hold their bytes.
      #expect(!chunk.isSimple(row) || value.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D })
    }
    #expect(chunk.isOutOfLine(far) && !chunk.isSimple(far))
    let total = values.reduce(0) { $0 + $1.utf8.count } + "written past the filled rows".utf8.count
    #expect(chunk.valueBytes(rows: Self.rows) == total)
    #expect(chunk.valueBytes(rows: 2) == 11)
  }

  @Test("overwriting moves a row between the arena and out of line, and to nil")
  func overwrite() {
    let chunk = StringChunk(isOptional: true)
    for row in 0..<6 { chunk.set("r\(row)", at: row, inlineLimit: Self.limit) }
    chunk.set("a long value", at: 2, inlineLimit: Self.limit)
    #expect(contents(chunk, count: 6) == ["r0", "r1", "a long value", "r3", "r4", "r5"])
    chunk.set("ok", at: 2, inlineLimit: Self.limit)
    #expect(!chunk.isOutOfLine(2) && chunk.isSimple(2))
    #expect(contents(chunk, count: 6) == ["r0", "r1", "ok", "r3", "r4", "r5"])
    chunk.set("another long one", at: 4, inlineLimit: Self.limit)
    chunk.set(nil, at: 4, inlineLimit: Self.limit)
    #expect(!chunk.isOutOfLine(4))
    #expect(contents(chunk, count: 7) == ["r0", "r1", "ok", "r3", nil, "r5", nil])
    chunk.set("", at: 4, inlineLimit: Self.limit)
    #expect(chunk.optionalString(4) == "" && chunk.isSimple(4))
    chunk.set("long again", at: 4, inlineLimit: Self.limit)
    chunk.set("long as well", at: 5, inlineLimit: Self.limit)
    #expect(contents(chunk, count: 6) == ["r0", "r1", "ok", "r3", "long again", "long as well"])
    #expect(chunk.used == "r0r1okr3".utf8.count)
  }

  @Test("clearing rows at once drops their out-of-line values as clearing one by one does")
  func clear() {
    for toNil in [false, true] {
      let batched = StringChunk(isOptional: toNil)
      let single = StringChunk(isOptional: toNil)
      for row in 0..<40 {
        let value = row % 3 == 0 ? "value \(row) held out of line" : "\(row)"
        batched.set(value, at: row, inlineLimit: Self.limit)
        single.set(value, at: row, inlineLimit: Self.limit)
      }
      let rows = [0, 1, 5, 6, 9, 20, 39, StringChunk.capacity - 12]
      batched.clear(rows, toNil: toNil)
      for row in rows { single.set(toNil ? nil : "", at: row, inlineLimit: Self.limit) }
      #expect(contents(batched) == contents(single))
      #expect(batched.used == single.used)
      for row in 0..<Self.rows {
        #expect(batched.isOutOfLine(row) == single.isOutOfLine(row), "row \(row)")
        #expect(batched.isSimple(row) == single.isSimple(row), "row \(row)")
      }
      #expect(!batched.isOutOfLine(0) && batched.isOutOfLine(3))
    }
  }

  @Test("a clone keeps the out-of-line values and is independent of its source")
  func clone() {
    let chunk = StringChunk()
    for row in 0..<10 { chunk.set("long row \(row)", at: row, inlineLimit: Self.limit) }
    let copy = chunk.clone()
    copy.set("changed value", at: 3, inlineLimit: Self.limit)
    copy.set("s", at: 5, inlineLimit: Self.limit)
    chunk.set("other value", at: 4, inlineLimit: Self.limit)
    #expect(chunk.string(3) == "long row 3" && chunk.string(5) == "long row 5")
    #expect(copy.string(3) == "changed value" && copy.string(5) == "s")
    #expect(copy.string(4) == "long row 4" && chunk.string(4) == "other value")
  }

  @Test("random writes of long and short values to a chain of copies agree with arrays")
  func differential() {
    var random = QueryRandom(seed: 23)
    let rows = 2 * Self.rows + 77
    let pool: [String?] = [
      nil, "", "a", "Café", "e\u{301}", "x\r\ny", "a longer value of bytes", "Ünïcödé long",
    ]
    let first = Column<String?>()
    first.stringStorage.inlineLimit = 6
    first.grow(to: rows)
    var columns: [(column: Column<String?>, model: [String?])] = [
      (first, [String?](repeating: nil, count: rows))
    ]
    for step in 0..<3_000 {
      let pick = Int.random(in: 0..<columns.count, using: &random)
      if step % 300 == 0 {
        columns[pick].column.freeze()
        let copy = unsafeDowncast(columns[pick].column.copy(), to: Column<String?>.self)
        #expect(copy.stringStorage.inlineLimit == 6)
        columns.append((copy, columns[pick].model))
        continue
      }
      if step % 97 == 0 {
        let cleared = (0..<rows).filter { _ in Int.random(in: 0..<5, using: &random) == 0 }
        columns[pick].column.stringStorage.clear(rows: cleared)
        for row in cleared { columns[pick].model[row] = nil }
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
}
