import Testing

@testable import ModelGraphCore

/// Format 7 writes string columns in groups of a chunk's rows, each front-coded (the prefix a
/// value shares with the last non-empty value before it, then the rest) or plain, whichever is
/// smaller: every shape of column must read back as it was, and every damaged length must be
/// refused at its row and byte.
@Suite("Snapshot front-coded strings (format 7)")
struct FrontCodedStringTests {
  let format = SnapshotFormat.frontCodedStringVersion
  let chunk = 1 << AnyColumn.chunkShift

  /// `column`'s bytes in `format`.
  private func encoded(_ column: AnyColumn, format: UInt32? = nil) -> [UInt8] {
    var writer = ByteWriter()
    column.encode(into: &writer, format: format ?? self.format)
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

  /// A column holding `values`, with values longer than `inlineLimit` bytes held out of line.
  private func column<Value: ColumnValue>(
    _ values: [Value], inlineLimit: Int = StringChunk.inlineLimit
  ) -> Column<Value> {
    let column = Column<Value>()
    column.stringStorage.inlineLimit = inlineLimit
    column.grow(to: values.count)
    for row in values.indices { column[row] = values[row] }
    return column
  }

  /// The tag of each group of `bytes` (a column of `count` rows in format 7; `optional` when it
  /// has a presence bitmap): 1 front-coded, 0 plain.
  private func groupTags(_ bytes: [UInt8], count: Int, optional: Bool) -> [UInt8] {
    var at = 8 + (optional ? (count + 7) / 8 : 0)
    #expect(bytes[at] == 1, "layout byte")
    at += 1
    var tags: [UInt8] = []
    for first in stride(from: 0, to: count, by: chunk) {
      let tag = bytes[at]
      tags.append(tag)
      let length = bytes[(at + 1)..<(at + 9)].reversed().reduce(0) { $0 << 8 | Int($1) }
      var cursor = at + 9
      var rests = 0
      for varint in 0..<(tag == 1 ? 2 : 1) * min(chunk, count - first) {
        var value = 0
        var shift = 0
        while bytes[cursor] >= 0x80 {
          value |= Int(bytes[cursor] & 0x7F) << shift
          shift += 7
          cursor += 1
        }
        value |= Int(bytes[cursor]) << shift
        cursor += 1
        if tag == 0 || varint % 2 == 1 { rests += value }
      }
      #expect(cursor == at + 9 + length)
      at = cursor + rests
    }
    #expect(at == bytes.count)
    return tags
  }

  @Test("a group is one chunk's rows, as the format says: 1,024")
  func groupRows() {
    #expect(chunk == 1_024)
  }

  @Test(
    "the bytes of a small group: each row's shared prefix and rest, absent and empty rows sharing nothing"
  )
  func exactBytes() throws {
    let values: [String?] = ["Trip 10", nil, "Trip 11", "", "Trip 12"]
    let bytes = encoded(column(values))
    let section: [UInt8] = [0, 7, 0, 0, 6, 1, 0, 0, 6, 1]
    let expected: [UInt8] =
      [5, 0, 0, 0, 0, 0, 0, 0, 0b1_1101, 1, 1, 10, 0, 0, 0, 0, 0, 0, 0] + section
      + Array("Trip 1012".utf8)
    #expect(bytes == expected)
    let decoded = Column<String?>()
    #expect(decode(bytes, into: decoded) == nil)
    #expect((0..<values.count).map { decoded[$0] } == values)
  }

  @Test(
    "columns of every shape read back as written, each group in the smaller layout",
    arguments: 0..<6)
  func roundTrip(shape: Int) throws {
    let count = 2 * chunk + 37
    let multiByte = ["Zürich", "Zürcher", "Zü", "Z", "日本語", "日本人", "日", "😀a", "😀b", "😁", "é", "ê"]
    var random = QueryRandom(seed: UInt64(shape))
    let values: [String] = (0..<count).map { row in
      switch shape {
      // Names numbered in row order: long shared prefixes.
      case 0: "Trip \(100_000 + row)"
      // Nothing shared with the row before: plain groups.
      case 1: String(UnicodeScalar(UInt8(65 + row % 26))) + "\(random.next() % 1000)"
      // Empty values between others.
      case 2: row % 3 == 1 ? "" : "Stay \(200_000 + row)"
      // Each value a prefix of the one before, then longer again.
      case 3: String("Activity 123456789".prefix(18 - row % 10))
      // Multi-byte characters whose bytes partly agree.
      case 4: multiByte[row % multiByte.count] + (row % 4 == 0 ? "" : "\(row % 7)")
      // Random values sharing a prefix, as destinations do.
      default: "City \(random.next() % 500)"
      }
    }
    let bytes = encoded(column(values))
    let tags = groupTags(bytes, count: count, optional: false)
    #expect(tags == Array(repeating: shape == 1 ? 0 : 1, count: 3))
    #expect(bytes.count < encoded(column(values), format: 6).count || shape == 1)
    for limit in [StringChunk.inlineLimit, 4] {
      let decoded = Column<String>()
      decoded.stringStorage.inlineLimit = limit
      #expect(decode(bytes, into: decoded) == nil)
      #expect((0..<count).allSatisfy { decoded[$0] == values[$0] })
    }
  }

  @Test("a shared prefix ends on a character boundary")
  func characterBoundary() {
    func shared(_ previous: String, _ value: String) -> Int {
      Array(previous.utf8).withUnsafeBufferPointer { previous in
        Array(value.utf8).withUnsafeBufferPointer { value in
          ColumnLayout.sharedPrefix(
            previous.baseAddress!, count: previous.count, value.baseAddress!, count: value.count)
        }
      }
    }
    #expect(shared("Zürich", "Zürcher") == 4)
    // é and ê share their lead byte; 😀 and 😁 three of their four bytes.
    #expect(shared("é", "ê") == 0)
    #expect(shared("x😀b", "x😁") == 1)
    #expect(shared("Trip 123456", "Trip 123457") == 10)
    #expect(shared("Trip 123456", "Trip 12345") == 10)
    #expect(shared("Trip 12345", "Trip 123456") == 10)
    #expect(shared("abcdefghijklmnopq", "abcdefghijklmnopq") == 17)
    #expect(shared("abcdefgh日本", "abcdefgh日x") == 11)
    #expect(shared("abcdefgh", "abcdefgh") == 8)
    #expect(shared("abcdefgX", "abcdefgY") == 7)
    #expect(shared("abcdefghijklmnoX", "abcdefghijklmnoY") == 15)
    #expect(shared("abcdefghi", "Xbcdefghi") == 0)
    #expect(shared("abc", "abd") == 2)
  }

  @Test("optional columns share across absent rows; values held out of line write the same bytes")
  func optionalAndOutOfLine() throws {
    let count = 2 * chunk + 300
    var random = QueryRandom(seed: 9)
    let values: [String?] = (0..<count).map { row in
      switch random.next() % 6 {
      case 0, 1: nil
      case 2: String(repeating: "long ", count: 8) + "\(row)"
      default: "Report \(300_000 + row)"
      }
    }
    let plain = column(values)
    let bytes = encoded(plain)
    #expect(groupTags(bytes, count: count, optional: true) == [1, 1, 1])
    #expect(encoded(column(values, inlineLimit: 16)) == bytes)
    // The last rows never set: past the rows their chunk filled.
    let unfilled = Column<String?>()
    unfilled.grow(to: count + 50)
    for row in 0..<count where values[row] != nil { unfilled[row] = values[row] }
    let unfilledBytes = encoded(unfilled)
    for limit in [StringChunk.inlineLimit, 16] {
      let decoded = Column<String?>()
      decoded.stringStorage.inlineLimit = limit
      #expect(decode(bytes, into: decoded) == nil)
      #expect((0..<count).allSatisfy { decoded[$0] == values[$0] })
      let tail = Column<String?>()
      tail.stringStorage.inlineLimit = limit
      #expect(decode(unfilledBytes, into: tail) == nil)
      #expect((0..<count + 50).allSatisfy { tail[$0] == (($0 < count) ? values[$0] : nil) })
    }
  }

  @Test("a damaged shared prefix, rest length, tag or byte is refused at its row and byte")
  func damagedGroup() throws {
    let values: [String?] = ["Trip 10", nil, "Trip 11", "", "Trip 12"]
    let bytes = encoded(column(values))
    // Row count, bitmap, layout byte, tag, section length.
    let section = 8 + 1 + 1 + 1 + 8
    let rows: [(prefix: Int, rest: Int)] = (0..<5).map {
      (section + 2 * $0, section + 2 * $0 + 1)
    }
    #expect(decode(bytes, into: Column<String?>()) == nil)

    // Row 2 sharing more than the 7 bytes of row 0 (row 1 is absent).
    var copy = bytes
    copy[rows[2].prefix] = 8
    var error = try #require(decode(copy, into: Column<String?>()))
    #expect(error.message == "row 2 shares 8 bytes with a value of 7 bytes")
    #expect(error.offset == rows[2].prefix)

    // Row 0 sharing with nothing.
    copy = bytes
    copy[rows[0].prefix] = 1
    error = try #require(decode(copy, into: Column<String?>()))
    #expect(error.message == "row 0 shares 1 bytes with a value of 0 bytes")
    #expect(error.offset == rows[0].prefix)

    // Row 4's rest longer than the bytes left.
    copy = bytes
    copy[rows[4].rest] = 0x7F
    error = try #require(decode(copy, into: Column<String?>()))
    #expect(error.message == "row 4's string of 6 + 127 bytes ends outside 8...9")
    #expect(error.offset == rows[4].rest)

    // A rest length cut short: the section ends inside its varint.
    copy = bytes
    copy[rows[4].rest] = 0x80
    error = try #require(decode(copy, into: Column<String?>()))
    #expect(error.message == "row 4's string length is damaged")
    #expect(error.offset == rows[4].rest)

    // An absent row given a byte (taken from row 4, now empty; row 2 shares it).
    copy = bytes
    copy[rows[1].rest] = 1
    copy[rows[2].prefix] = 1
    copy[rows[4].prefix] = 0
    copy[rows[4].rest] = 0
    error = try #require(decode(copy, into: Column<String?>()))
    #expect(error.message == "row 1 has no value but 1 bytes")
    #expect(error.offset == rows[1].prefix)

    // A tag that is no layout.
    copy = bytes
    copy[section - 9] = 2
    error = try #require(decode(copy, into: Column<String?>()))
    #expect(error.message == "rows 0..<5: 2 is not a layout of string rows")
    #expect(error.offset == section - 9)
  }

  @Test(
    "a prefix that ends inside a character, or a rest that is not UTF-8, is refused at its row",
    arguments: [StringChunk.inlineLimit, 1])
  func damagedCharacters(inlineLimit: Int) throws {
    let values = ["éa", "éb", "éc"]
    let bytes = encoded(column(values))
    // Row count, layout byte, tag, section length; then 0 3, 2 1, 2 1.
    let section = 8 + 1 + 1 + 8
    #expect(Array(bytes[section..<(section + 6)]) == [0, 3, 2, 1, 2, 1])
    let decoded = Column<String>()
    decoded.stringStorage.inlineLimit = inlineLimit
    #expect(decode(bytes, into: decoded) == nil)
    #expect((0..<3).map { decoded[$0] } == values)

    // Row 2 sharing only the lead byte of é.
    var copy = bytes
    copy[section + 4] = 1
    copy[section + 5] = 2
    copy[section + 3] = 0
    let into = Column<String>()
    into.stringStorage.inlineLimit = inlineLimit
    var error = try #require(decode(copy, into: into))
    #expect(error.message == "row 2's shared prefix of 1 bytes ends inside a character")
    #expect(error.offset == section + 4)

    // A byte of row 1's rest that is not UTF-8.
    copy = bytes
    copy[section + 6 + 3] = 0xFF
    let other = Column<String>()
    other.stringStorage.inlineLimit = inlineLimit
    error = try #require(decode(copy, into: other))
    #expect(error.message == "row 1's string is not valid UTF-8")
    #expect(error.offset == section + 2)
  }

  @Test("a group that would rebuild more than 16 times its bytes is written plain, and refused")
  func expansionLimit() throws {
    // 1,024 copies of one 500-byte value: front coding would take about 3 bytes a row.
    let long = String(repeating: "lorem ipsum ", count: 42).prefix(500)
    let repeated = column(Array(repeating: String(long), count: chunk))
    let bytes = encoded(repeated)
    #expect(groupTags(bytes, count: chunk, optional: false) == [0])
    let decoded = Column<String>()
    #expect(decode(bytes, into: decoded) == nil)
    #expect((0..<chunk).allSatisfy { decoded[$0] == String(long) })

    // Three values sharing a 100-byte prefix fit the limit and are front-coded; a forged group
    // whose rows share 100 bytes, eight times over, from a 100-byte first value does not.
    let prefix = String(repeating: "x", count: 100)
    let shared = encoded(column([prefix, prefix + "a", prefix + "b"]))
    #expect(groupTags(shared, count: 3, optional: false) == [1])
    var forged: [UInt8] = []
    func append(_ value: UInt64, bytes count: Int) {
      for index in 0..<count { forged.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
    }
    let rows = 40
    append(UInt64(rows), bytes: 8)  // the row count
    forged += [1, 1]  // the layout byte; the group's tag: front-coded
    let section: [UInt8] = [0, 100] + Array(repeating: [100, 0], count: rows - 1).flatMap { $0 }
    append(UInt64(section.count), bytes: 8)
    forged += section + Array(repeating: UInt8(ascii: "x"), count: 100)
    let stored = 1 + 8 + section.count + 100
    let error = try #require(decode(forged, into: Column<String>()))
    #expect(
      error.message
        == "rows 0..<\(rows) rebuild \(rows * 100) bytes from \(stored), more than 16 times as many"
    )
    #expect(error.offset == 9)
  }

  @Test("a column cut anywhere is refused with an error, never a crash")
  func truncated() throws {
    let count = chunk + 40
    let values: [String?] = (0..<count).map { $0 % 4 == 0 ? nil : "Act \(400_000 + $0)" }
    let bytes = encoded(column(values))
    for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 300)) {
      #expect(decode(Array(bytes[..<cut]), into: Column<String?>()) != nil, "cut at \(cut)")
    }
    for cut in (bytes.count - 12)..<bytes.count {
      #expect(decode(Array(bytes[..<cut]), into: Column<String?>()) != nil, "cut at \(cut)")
    }
  }

  @Test(
    "a store written in format 7 reads back the same, in fewer bytes than format 6, which still reads"
  )
  func wholeFile() throws {
    let store = try SnapshotFixture.makeStore(trips: 3_000, deletions: 20)
    let file = SnapshotWriter.encode(store.version)
    let older = SnapshotWriter.encode(store.version, formatVersion: 6)
    #expect(file[8] == UInt8(SnapshotFormat.version))
    #expect(older[8] == 6)
    #expect(file.count < older.count)
    let decoded = try SnapshotReader.decode(file, path: "front.mgs")
    #expect(SnapshotWriter.encode(decoded) == file)
    let fromOlder = try SnapshotReader.decode(older, path: "older.mgs")
    #expect(SnapshotWriter.encode(fromOlder) == file)
    #expect(SnapshotWriter.encode(fromOlder, formatVersion: 6) == older)
  }
}
