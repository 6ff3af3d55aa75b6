import Testing

@testable import ModelGraphCore

/// Format 6's writers read columns chunk by chunk (a to-many column's spans and arenas, a string
/// chunk's offsets) and its string reader decodes each chunk's lengths straight into the chunk:
/// the bytes must not depend on how a column happens to hold its values, and every damaged
/// length must be named by its row and byte.
@Suite("Snapshot compact layouts: chunk paths (format 6)")
struct CompactLayoutPathTests {
  let format = SnapshotFormat.compactLayoutVersion
  let chunk = 1 << AnyColumn.chunkShift

  /// `column`'s bytes in format 6.
  private func encoded(_ column: AnyColumn) -> [UInt8] {
    var writer = ByteWriter()
    column.encode(into: &writer, format: format)
    return writer.bytes
  }

  /// `bytes` read into `column` (new and empty): the error, or `nil` when they read.
  private func decode(_ bytes: [UInt8], into column: AnyColumn) -> SnapshotError? {
    bytes.withUnsafeBytes { raw in
      var reader = ByteReader(raw, fileOffset: 0, path: "test", section: "column")
      do {
        try column.decode(from: &reader, format: format)
        #expect(reader.isAtEnd)
        return nil
      } catch {
        return error as? SnapshotError
      }
    }
  }

  @Test(
    "to-many lists scattered in their chunks' arenas write the bytes of the same lists set in order",
    arguments: [true, false])
  func scatteredLists(rowOnly: Bool) throws {
    let count = 2 * chunk + 9
    var random = QueryRandom(seed: rowOnly ? 5 : 6)
    var next = 0
    let lists: [[ObjectKey]] = (0..<count).map { row in
      (0..<Int(random.next() % 5)).map { _ in
        next += 1
        return ObjectKey(
          entity: rowOnly || row % 3 != 0 ? 1 : 4, row: next,
          generation: rowOnly || row % 5 != 0 ? 2 : 8)
      }
    }
    let ordered = KeyListColumn()
    ordered.grow(to: count)
    for row in 0..<count { ordered[row] = lists[row] }
    // Set last row first, some rows twice, some grown key by key: spans out of row order, and
    // garbage between them.
    let scattered = KeyListColumn()
    scattered.grow(to: count)
    for row in (0..<count).reversed() {
      if row % 4 == 0 { scattered[row] = lists[(row + 1) % count] + lists[row] }
      if row % 3 == 0, let first = lists[row].first {
        scattered[row] = [first]
        for key in lists[row].dropFirst() { scattered.append(key, at: row) }
      } else {
        scattered[row] = lists[row]
      }
    }
    #expect((0..<count).allSatisfy { scattered[$0] == lists[$0] })
    let bytes = encoded(scattered)
    #expect(bytes == encoded(ordered))
    let decoded = KeyListColumn()
    #expect(decode(bytes, into: decoded) == nil)
    #expect(decoded.count == count && (0..<count).allSatisfy { decoded[$0] == lists[$0] })
  }

  @Test("string chunks with values held out of line, or rows never set, write the same bytes")
  func stringChunkShapes() throws {
    let count = 2 * chunk + 30
    let values: [String?] = (0..<count).map { row in
      switch row % 7 {
      case 0: nil
      case 1: String(repeating: "long ", count: 40) + "\(row)"
      case 2: "Zürich \(row)"
      default: count - row <= 20 ? nil : "Trip \(row)"
      }
    }
    let plain = Column<String?>()
    plain.grow(to: count)
    for row in 0..<count { plain[row] = values[row] }
    // The long values out of line; the last rows never set (nil, past the rows filled).
    let outOfLine = Column<String?>()
    outOfLine.stringStorage.inlineLimit = 16
    outOfLine.grow(to: count)
    for row in 0..<count where values[row] != nil || count - row > 20 {
      outOfLine[row] = values[row]
    }
    #expect((0..<count).allSatisfy { outOfLine[$0] == values[$0] })
    let bytes = encoded(plain)
    #expect(encoded(outOfLine) == bytes)
    // Read back in place and, with a low inline limit, out of line.
    for limit in [StringChunk.inlineLimit, 16] {
      let decoded = Column<String?>()
      decoded.stringStorage.inlineLimit = limit
      #expect(decode(bytes, into: decoded) == nil)
      #expect((0..<count).allSatisfy { decoded[$0] == values[$0] })
    }
  }

  /// A `String?` column of `count` rows (every fifth absent, the others `"Trip <row>"`), its
  /// format 6 bytes, and the offset of row 0's length (each length is one byte).
  private func tripNames(count: Int) -> (column: [String?], bytes: [UInt8], lengths: Int) {
    let values: [String?] = (0..<count).map { $0 % 5 == 0 ? nil : "Trip \($0)" }
    let column = Column<String?>()
    column.grow(to: count)
    for row in 0..<count { column[row] = values[row] }
    // Row count, presence bitmap, offset width, section length.
    return (values, encoded(column), 8 + (count + 7) / 8 + 1 + 8)
  }

  /// The offset of `row`'s first byte in the arena of `tripNames`.
  private func arenaOffset(_ values: [String?], row: Int) -> Int {
    values[..<row].reduce(0) { $0 + ($1?.utf8.count ?? 0) }
  }

  @Test(
    "a damaged string length or arena is refused at the row and the byte of its length",
    arguments: [3, 1_000, 2_051])
  func damagedLengths(row: Int) throws {
    let count = 2 * chunk + 5
    let (values, bytes, lengths) = tripNames(count: count)
    #expect(decode(bytes, into: Column<String?>()) == nil)

    // An absent row given three bytes of the row after it.
    let absent = row - row % 5
    var copy = bytes
    copy[lengths + absent] = 3
    copy[lengths + absent + 1] -= 3
    let absentError = try #require(decode(copy, into: Column<String?>()))
    #expect(absentError.message == "row \(absent) has no value but 3 bytes")
    #expect(absentError.offset == lengths + absent)

    // A byte of a row's value that is not UTF-8 (the row after, when `row` is absent).
    let present = row % 5 == 0 ? row + 1 : row
    copy = bytes
    copy[bytes.count - arenaOffset(values, row: count) + arenaOffset(values, row: present)] = 0xFF
    let utf8Error = try #require(decode(copy, into: Column<String?>()))
    #expect(utf8Error.message == "row \(present)'s string is not valid UTF-8")
    #expect(utf8Error.offset == lengths + present)

    // The last length cut short: the section ends inside its varint.
    copy = bytes
    copy[lengths + count - 1] = 0x80
    let cutError = try #require(decode(copy, into: Column<String?>()))
    #expect(cutError.message == "row \(count - 1)'s string length is damaged")
    #expect(cutError.offset == lengths + count - 1)

    // The last row (read alone: its chunk has five rows) longer than the arena's rest.
    copy = bytes
    copy[lengths + count - 1] = 0x7F
    let longError = try #require(decode(copy, into: Column<String?>()))
    #expect(longError.message.hasPrefix("row \(count - 1)'s string of 127 bytes ends outside"))
    #expect(longError.offset == lengths + count - 1)
  }

  @Test("a length among eight read at once that passes the arena is refused at its own byte")
  func longLengthInBatch() throws {
    let count = 16
    let column = Column<String>()
    column.grow(to: count)
    for row in 0..<count { column[row] = "ab" }
    var bytes = encoded(column)
    let lengths = 8 + 1 + 8
    #expect(bytes[lengths + 9] == 2)
    bytes[lengths + 9] = 0x7F
    let error = try #require(decode(bytes, into: Column<String>()))
    #expect(error.message.hasPrefix("row 9's string of 127 bytes ends outside 18..."))
    #expect(error.offset == lengths + 9)
    // Lengths that sum to less than the arena leave bytes the rows do not hold.
    bytes[lengths + 9] = 1
    let short = try #require(decode(bytes, into: Column<String>()))
    #expect(short.message == "the strings end at 31, the arena at 32")
  }

  @Test(
    "to-one keys of a few entities and one generation round-trip; a damaged lead is refused at its row and byte",
    arguments: [0, 100, 1_500])
  func fewEntityKeys(row: Int) throws {
    let count = 2 * chunk + 11
    let keys: [ObjectKey?] = (0..<count).map {
      $0 % 9 == 4 ? nil : ObjectKey(entity: $0 % 3, row: $0 / 3 + 5, generation: 6)
    }
    let column = Column<ObjectKey?>()
    column.grow(to: count)
    for index in 0..<count { column[index] = keys[index] }
    let decoded = Column<ObjectKey?>()
    #expect(decode(encoded(column), into: decoded) == nil)
    #expect((0..<count).allSatisfy { decoded[$0] == keys[$0] })

    // Every key present: a lead byte and an entity byte each, the section last.
    let present = Column<ObjectKey?>()
    present.grow(to: count)
    for index in 0..<count {
      present[index] = ObjectKey(entity: index % 3, row: index / 3, generation: 6)
    }
    var bytes = encoded(present)
    let lead = bytes.count - 2 * count + 2 * row
    #expect(bytes[lead + 1] == UInt8(row % 3))
    // 0x7E: zigzag code 125, a difference of -63: below row 0 this near the start.
    bytes[lead] = 0x7E
    if max(row - 1, 0) / 3 < 63 {
      let error = try #require(decode(bytes, into: Column<ObjectKey?>()))
      #expect(error.message == "row \(row) holds a damaged key")
      #expect(error.offset == lead)
    } else {
      #expect(decode(bytes, into: Column<ObjectKey?>()) == nil)
    }
  }
}
