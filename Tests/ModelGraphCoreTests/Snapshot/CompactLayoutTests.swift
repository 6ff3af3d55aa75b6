import Foundation
import Testing

@testable import ModelGraphCore

/// Format 6's compact layouts: varints, `UInt32` columns as differences, keys as row
/// differences, string lengths as varints; each against what it encodes, and damaged bytes.
@Suite("Snapshot compact layouts (format 6)")
struct CompactLayoutTests {
  let format = SnapshotFormat.compactLayoutVersion
  let chunk = 1 << AnyColumn.chunkShift

  // MARK: Varints

  @Test("varints and zigzag codes round-trip at every size, and take the bytes they say")
  func varints() {
    var values: [UInt64] = [0, 1, 127, 128, 255, 16_383, 16_384, UInt64(UInt32.max), .max]
    var random = QueryRandom(seed: 3)
    for _ in 0..<500 { values.append(random.next() >> (random.next() % 64)) }
    var bytes = [UInt8](repeating: 0, count: values.count * Varint.maximumSize)
    var end = 0
    bytes.withUnsafeMutableBytes { out in
      for value in values {
        let after = Varint.store(value, into: out, at: end)
        #expect(after - end == Varint.size(value))
        end = after
      }
    }
    #expect(Varint.size(0) == 1 && Varint.size(127) == 1 && Varint.size(128) == 2)
    #expect(Varint.size(.max) == 10)
    bytes.withUnsafeBytes { raw in
      var cursor = VarintCursor(UnsafeRawBufferPointer(rebasing: raw[..<end]))
      for value in values { #expect(cursor.next() == value) }
      #expect(cursor.isAtEnd && cursor.next() == nil)
    }
    for value: Int64 in [0, 1, -1, 2, -2, .max, .min, 1 << 40, -(1 << 40)] {
      #expect(Varint.unzigzag(Varint.zigzag(value)) == value)
    }
    #expect([0, -1, 1, -2, 2].map { Varint.zigzag($0) } == [0, 1, 2, 3, 4])
  }

  @Test("a varint cut short, longer than ten bytes, or past 64 bits is refused")
  func damagedVarints() {
    func read(_ bytes: [UInt8]) -> UInt64? {
      bytes.withUnsafeBytes { raw in
        var cursor = VarintCursor(raw)
        return cursor.next()
      }
    }
    #expect(read([0x80]) == nil)
    #expect(read([]) == nil)
    #expect(read([UInt8](repeating: 0xFF, count: 9) + [0x01]) == .max)
    #expect(read([UInt8](repeating: 0xFF, count: 9) + [0x02]) == nil)
    #expect(read([UInt8](repeating: 0x80, count: 10) + [0x00]) == nil)
  }

  // MARK: Columns

  /// `column` written in format 6 and read back into a new column of its type.
  private func roundTrip<C: AnyColumn>(_ column: C, _ make: () -> C) throws -> (C, Int) {
    var writer = ByteWriter()
    column.encode(into: &writer, format: format)
    let decoded = make()
    let bytes = writer.bytes
    try bytes.withUnsafeBytes { raw in
      var reader = ByteReader(raw, fileOffset: 0, path: "test", section: "column")
      try decoded.decode(from: &reader, format: format)
      #expect(reader.isAtEnd)
    }
    return (decoded, bytes.count)
  }

  @Test("UInt32 columns: runs of equal stamps take a byte a row; random values stay raw")
  func words() throws {
    let stamps = Column<UInt32>()
    let count = 2 * chunk + 17
    stamps.grow(to: count)
    for row in 0..<count { stamps[row] = row % 97 == 0 ? 4 : 3 }
    let (same, sameBytes) = try roundTrip(stamps) { Column<UInt32>() }
    #expect((0..<count).allSatisfy { same[$0] == stamps[$0] })
    #expect(sameBytes < 8 + 1 + 8 + count + 16)

    let random = Column<UInt32>()
    random.grow(to: count)
    var generator = QueryRandom(seed: 5)
    for row in 0..<count { random[row] = UInt32(truncatingIfNeeded: generator.next()) }
    random[0] = .max
    random[1] = 0
    let (decoded, rawBytes) = try roundTrip(random) { Column<UInt32>() }
    #expect((0..<count).allSatisfy { decoded[$0] == random[$0] })
    #expect(rawBytes == 8 + 1 + count * 4)
  }

  @Test(
    "to-one keys of one entity, of several, with absent keys and mixed generations round-trip",
    arguments: [1, 3, 300, 70_000])
  func keys(entities: Int) throws {
    let column = Column<ObjectKey?>()
    let count = chunk + 300
    column.grow(to: count)
    var random = QueryRandom(seed: UInt64(entities))
    for row in 0..<count {
      switch random.next() % 10 {
      case 0: column[row] = nil
      case 1:
        // A row far behind the one before: a large negative difference.
        column[row] = ObjectKey(
          entity: Int(random.next() % UInt64(entities)), row: Int(random.next() % 1000),
          generation: 0)
      default:
        column[row] = ObjectKey(
          entity: Int(random.next() % UInt64(entities)), row: row / 3 + Int(UInt32.max) / 2,
          generation: row % 50 == 0 ? UInt32.max : 0)
      }
    }
    let (decoded, _) = try roundTrip(column) { Column<ObjectKey?>() }
    #expect((0..<count).allSatisfy { decoded[$0] == column[$0] })

    // Children made one after another: a byte or two a key.
    let children = Column<ObjectKey?>()
    children.grow(to: count)
    for row in 0..<count { children[row] = ObjectKey(entity: 0, row: row / 3, generation: 7) }
    let (again, bytes) = try roundTrip(children) { Column<ObjectKey?>() }
    #expect((0..<count).allSatisfy { again[$0] == children[$0] })
    #expect(bytes <= 8 + 1 + 4 + 1 + 4 + 8 + count)
  }

  @Test("to-many keys round-trip: empty lists, long lists, keys of several entities")
  func keyLists() throws {
    let lists = KeyListColumn()
    let count = 2 * chunk + 3
    lists.grow(to: count)
    var random = QueryRandom(seed: 11)
    var next = 0
    for row in 0..<count {
      let length = row == 5 ? 700 : Int(random.next() % 4)
      lists[row] = (0..<length).map { _ in
        next += 1
        return ObjectKey(
          entity: row % 7 == 0 ? 2 : 1, row: random.next() % 9 == 0 ? 3 : next,
          generation: row % 11 == 0 ? 9 : 0)
      }
    }
    let (decoded, _) = try roundTrip(lists) { KeyListColumn() }
    #expect(decoded.count == count)
    #expect((0..<count).allSatisfy { decoded[$0] == lists[$0] })

    // One entity, one generation: each key is its row's varint alone.
    let children = KeyListColumn()
    children.grow(to: count)
    var child = 0
    for row in 0..<count {
      children[row] = (0..<(row % 4)).map { _ in
        child += 1
        return ObjectKey(entity: 1, row: child % 1000 == 0 ? 0 : child, generation: 3)
      }
    }
    let (again, bytes) = try roundTrip(children) { KeyListColumn() }
    #expect((0..<count).allSatisfy { again[$0] == children[$0] })
    #expect(bytes < 8 + 8 + count + 8 + 1 + 4 + 1 + 4 + 8 + 2 * child)
  }

  @Test("strings round-trip with varint lengths: empty, absent, non-ASCII and out-of-line values")
  func strings() throws {
    let column = Column<String?>()
    let count = chunk + 40
    column.grow(to: count)
    for row in 0..<count {
      column[row] =
        switch row % 6 {
        case 0: nil
        case 1: ""
        case 2: "Trip \(row)"
        case 3: "Zürich → \(row) 🚆"
        case 4: String(repeating: "long ", count: 60) + "\(row)"
        default: "x"
        }
    }
    let (decoded, _) = try roundTrip(column) { Column<String?>() }
    #expect((0..<count).allSatisfy { decoded[$0] == column[$0] })
  }

  /// The error reading `bytes` into a new column of `make` gives.
  private func failure<C: AnyColumn>(_ bytes: [UInt8], _ make: () -> C) -> SnapshotError? {
    bytes.withUnsafeBytes { raw in
      var reader = ByteReader(raw, fileOffset: 0, path: "test", section: "column")
      do {
        try make().decode(from: &reader, format: format)
        return nil
      } catch {
        return error as? SnapshotError
      }
    }
  }

  @Test(
    "a damaged byte among one-byte varints is refused at its row and byte, in a batch or alone",
    arguments: [0, 13, 4_101, 4_199])
  func damagedSmallVarints(row: Int) throws {
    let count = 4_200
    // Stamps: equal values, each a zero difference; a difference of -64 goes below zero.
    let stamps = Column<UInt32>()
    stamps.grow(to: count)
    for index in 0..<count { stamps[index] = 3 }
    var writer = ByteWriter()
    stamps.encode(into: &writer, format: format)
    var bytes = writer.bytes
    let wordAt = bytes.count - count + row
    bytes[wordAt] = 0x7F
    let stampError = try #require(failure(bytes) { Column<UInt32>() })
    #expect(stampError.message == "row \(row)'s value is damaged or outside UInt32")
    #expect(stampError.offset == wordAt)

    // A list a row, one key each, of consecutive rows: every key one byte; a lead of 0 is an
    // absent key, which no list may hold.
    let lists = KeyListColumn()
    lists.grow(to: count)
    for index in 0..<count { lists[index] = [ObjectKey(entity: 1, row: index + 1, generation: 0)] }
    writer = ByteWriter()
    lists.encode(into: &writer, format: format)
    bytes = writer.bytes
    let keyAt = bytes.count - count + row
    #expect(bytes[keyAt] == 3)
    bytes[keyAt] = 0
    let listError = try #require(failure(bytes) { KeyListColumn() })
    #expect(listError.message == "row \(row) holds a damaged or absent key")
    #expect(listError.offset == keyAt)

    // The same keys as to-one keys: a lead pointing below row 0 is damaged.
    let keys = Column<ObjectKey?>()
    keys.grow(to: count)
    for index in 0..<count { keys[index] = ObjectKey(entity: 1, row: index, generation: 0) }
    writer = ByteWriter()
    keys.encode(into: &writer, format: format)
    bytes = writer.bytes
    let leadAt = bytes.count - count + row
    // 0x7E: zigzag code 125, a difference of -63.
    bytes[leadAt] = 0x7E
    if row < 64 {
      let keyError = try #require(failure(bytes) { Column<ObjectKey?>() })
      #expect(keyError.message == "row \(row) holds a damaged key")
      #expect(keyError.offset == leadAt)
    } else {
      // Far enough from row 0, the same byte names a row 63 back: a valid key, which the file's
      // key check (not this layout) refuses when no such row exists.
      #expect(failure(bytes) { Column<ObjectKey?>() } == nil)
    }
  }

  // MARK: Whole files

  @Test("a store written in format 6 reads back the same, in fewer bytes than format 5")
  func wholeFile() throws {
    let store = try SnapshotFixture.makeStore(trips: 300, deletions: 20)
    let compact = SnapshotWriter.encode(store.version, formatVersion: format)
    let older = SnapshotWriter.encode(store.version, formatVersion: 5)
    #expect(compact[8] == 6)
    #expect(compact.count < older.count)
    let decoded = try SnapshotReader.decode(compact, path: "compact.mgs")
    #expect(SnapshotWriter.encode(decoded, formatVersion: format) == compact)
    let fromOlder = try SnapshotReader.decode(older, path: "older.mgs")
    #expect(SnapshotWriter.encode(fromOlder, formatVersion: format) == compact)
  }

  @Test("damaged compact sections give a SnapshotError inside the file, never a crash")
  func damagedSections() throws {
    let store = try SnapshotFixture.makeStore(trips: 40, deletions: 3)
    let file = SnapshotWriter.encode(store.version)
    let forge = SnapshotForge(file)
    var damaged = 0
    // Every column block, with one byte of its layout changed in turn to each of a few values:
    // the file must either still read (a change that keeps it valid) or fail with an error.
    for block in forge.blocks.indices where forge.blocks[block].kind == 3 {
      let payload = forge.blocks[block].payload
      for offset in stride(from: 17, to: payload.count, by: max(1, payload.count / 40)) {
        for value: UInt8 in [0x00, 0x80, 0xFF] where payload[offset] != value {
          var copy = forge
          copy.blocks[block].payload[offset] = value
          let bytes = copy.assemble()
          do {
            _ = try SnapshotReader.decode(bytes, path: "damaged.mgs")
          } catch let error as SnapshotError {
            damaged += 1
            #expect(error.offset.map { $0 >= 0 && $0 <= bytes.count } == true)
          }
        }
      }
    }
    #expect(damaged > 100)
  }
}
