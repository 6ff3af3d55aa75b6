import Foundation
import Testing

@testable import ModelGraphCore

/// The load path of a large file: to-many keys decoded straight into their chunks' arenas, and
/// relationship keys checked by the column jobs (no pass over every key after them).
@Suite("Snapshot loading: key lists by chunk, keys checked by the column jobs")
struct SnapshotLoadPathTests {
  /// The offset of the layout in a column block's payload: entity, role, slot, row count.
  private static let layout = 4 + 1 + 4 + 8

  /// 2,400 trips (two chunks of `Trip` rows, three of `Stay` rows) whose `stays` lists hold
  /// `row % 6` stays (every sixth list empty), and the file of that store in format `format`
  /// (by default 5, whose fixed-size keys the forging tests below rewrite).
  private static func file(format: UInt32 = 5) throws -> (store: Store, file: [UInt8]) {
    let store = try SnapshotFixture.makeStore(trips: 2_400, deletions: 3)
    let session = Session(store: store)
    let stays = session.table(SnapshotFixture.stay)
    let stayKeys = (0..<stays.rowCount).filter { stays.isAlive($0) }.map {
      ObjectKey(entity: SnapshotFixture.stay, row: $0, generation: stays.generation(of: $0))
    }
    for entity in [SnapshotFixture.trip, SnapshotFixture.business] {
      let table = session.table(entity)
      for row in 0..<table.rowCount where table.isAlive(row) {
        let keys = (0..<row % 6).map { stayKeys[(row * 7 + $0) % stayKeys.count] }
        table.setRelatedKeys(keys, row: row, slot: 0)
        session.noteRelationshipWrite(entity: entity, row: row)
      }
    }
    try session.save()
    return (store, SnapshotWriter.encode(store.version, formatVersion: format))
  }

  private static func decode(_ file: [UInt8], parallel: Bool) throws -> StoreVersion {
    try file.withUnsafeBytes {
      try SnapshotReader.decodeWithHistory(
        $0, path: "p.mgs", parallelFrom: parallel ? 0 : .max
      ).version
    }
  }

  /// The error decoding `file` gives.
  private static func failure(_ file: [UInt8], parallel: Bool) throws -> SnapshotError {
    do {
      _ = try decode(file, parallel: parallel)
    } catch let error as SnapshotError {
      return error
    }
    Issue.record("decoded without an error")
    throw CancellationError()
  }

  /// The number of keys of each row of the key list block `block` of `forge`.
  private static func lengths(_ forge: SnapshotForge, block: Int) -> [Int] {
    let payload = forge.blocks[block].payload
    let rows = Int(SnapshotForge.load(UInt64.self, payload, 9))
    return (0..<rows).map { Int(SnapshotForge.load(UInt32.self, payload, layout + 4 * $0)) }
  }

  @Test("key lists of several chunks, empty ones among them, read back as written")
  func keyListsRoundTrip() throws {
    for format in [5, SnapshotFormat.version] {
      try keyListsRoundTrip(format: format)
    }
  }

  private func keyListsRoundTrip(format: UInt32) throws {
    let (store, file) = try Self.file(format: format)
    #expect(store.version.tables[SnapshotFixture.trip].rowCount > KeyListChunk.capacity)
    for parallel in [true, false] {
      let decoded = try Self.decode(file, parallel: parallel)
      #expect(SnapshotWriter.encode(decoded, formatVersion: format) == file)
      for entity in [SnapshotFixture.trip, SnapshotFixture.business] {
        let original = store.version.tables[entity]
        let lists = try #require(decoded.tables[entity].relationshipColumns[0] as? KeyListColumn)
        let expected = try #require(original.relationshipColumns[0] as? KeyListColumn)
        #expect(lists.count == expected.count)
        for row in 0..<lists.count {
          #expect(lists[row] == expected[row], "entity \(entity) row \(row)")
        }
        // Lists written after loading go where they belong.
        let row = lists.count - 1
        lists.append(ObjectKey(entity: SnapshotFixture.stay, row: 0, generation: 0), at: row)
        #expect(lists[row] == expected[row] + [ObjectKey(entity: 2, row: 0, generation: 0)])
        #expect(lists[0] == expected[0])
      }
    }
  }

  @Test("an absent key in the second chunk's lists is refused at its row and byte")
  func absentKeyInLaterChunk() throws {
    let (_, file) = try Self.file()
    var forge = SnapshotForge(file)
    let block = forge.column(entity: 0, role: 2, slot: 0)
    let lengths = Self.lengths(forge, block: block)
    // The first row with keys in the second chunk of rows.
    let row = try #require((KeyListChunk.capacity..<lengths.count).first { lengths[$0] > 0 })
    let header = Self.layout + 4 * lengths.count + 8
    let payload = forge.blocks[block].payload
    #expect(payload[header] == 1, "1-byte entities")
    let keysStart = header + 2 + (payload[header + 1] == 1 ? 4 : 0)
    let keySize = 1 + 4 + (payload[header + 1] == 1 ? 0 : 4)
    let keyOffset = keysStart + lengths[..<row].reduce(0, +) * keySize
    forge.blocks[block].payload[keyOffset] = 0xFF
    let damaged = forge.assemble()
    let error = try Self.failure(damaged, parallel: true)
    #expect(error.code == .malformed && error.message == "row \(row) holds an absent key")
    #expect(error.offset == forge.offset(ofBlock: block) + 12 + keyOffset)
    #expect(error.section == "table Trip column stays")
    #expect("\(error)" == "\(try Self.failure(damaged, parallel: false))")
  }

  @Test("a dangling key in a later chunk is refused through the parallel path, as in order")
  func danglingKeys() throws {
    let (_, file) = try Self.file()
    // A key list's key naming a stay row past the table.
    var lists = SnapshotForge(file)
    let block = lists.column(entity: 0, role: 2, slot: 0)
    let lengths = Self.lengths(lists, block: block)
    let row = try #require((KeyListChunk.capacity..<lengths.count).first { lengths[$0] > 0 })
    let header = Self.layout + 4 * lengths.count + 8
    let shared = lists.blocks[block].payload[header + 1] == 1
    let keySize = 1 + 4 + (shared ? 0 : 4)
    let keyOffset = header + 2 + (shared ? 4 : 0) + lengths[..<row].reduce(0, +) * keySize
    lists.put(UInt32(5_000_000), block: block, at: keyOffset + 1)
    // A to-one key naming a trip row past the table, in the last chunk of stays.
    var one = SnapshotForge(file)
    let trips = one.column(entity: 2, role: 2, slot: 0)
    let rows = Int(SnapshotForge.load(UInt64.self, one.blocks[trips].payload, 9))
    #expect(rows > 2 * KeyListChunk.capacity)
    let tripShared = one.blocks[trips].payload[Self.layout + 1] == 1
    let tripKeySize = 1 + 4 + (tripShared ? 0 : 4)
    let tripKeys = Self.layout + 2 + (tripShared ? 4 : 0)
    // The last stay that names a trip (not an absent key).
    let stay = try #require(
      (0..<rows).last { one.blocks[trips].payload[tripKeys + $0 * tripKeySize] != 0xFF })
    #expect(stay >= 2 * KeyListChunk.capacity)
    one.put(UInt32(5_000_000), block: trips, at: tripKeys + stay * tripKeySize + 1)
    for (forge, section, row, kind) in [
      (lists, "table Trip column stays", row, "Stay"),
      (one, "table Stay column trip", stay, "Trip"),
    ] {
      let damaged = forge.assemble()
      let error = try Self.failure(damaged, parallel: true)
      #expect(error.code == .malformed && error.section == section)
      #expect(error.message.hasPrefix("row \(row) points at"))
      #expect(error.message.hasSuffix("which is not a \(kind) of the file"))
      #expect("\(error)" == "\(try Self.failure(damaged, parallel: false))")
    }
  }

  @Test("a key list chunk whose load fails is left with every row empty")
  func failedChunkLoad() {
    let chunk = KeyListChunk()
    let key = ObjectKey(entity: 1, row: 2, generation: 3)
    let failed = chunk.load(total: 3) { spans, keys in
      spans[0] = KeySpan(start: 0, count: 3)
      keys.initialize(repeating: key, count: 3)
      return false
    }
    #expect(!failed)
    #expect((0..<KeyListChunk.capacity).allSatisfy { chunk.keys(at: $0).isEmpty })
    let loaded = chunk.load(total: 3) { spans, keys in
      spans[1] = KeySpan(start: 0, count: 1)
      spans[4] = KeySpan(start: 1, count: 2)
      keys.initialize(repeating: key, count: 3)
      return true
    }
    #expect(loaded)
    #expect(Array(chunk.keys(at: 1)) == [key] && Array(chunk.keys(at: 4)) == [key, key])
    #expect(chunk.keys(at: 0).isEmpty && chunk.used == 3 && chunk.garbage == 0)
  }

  @Test(
    "a string chunk loaded whole takes the nil flags of its rows by words and keeps the rest",
    arguments: [0, 1, 63, 64, 65, 130, StringChunk.capacity])
  func stringChunkNilWords(rows: Int) {
    let chunk = StringChunk(isOptional: true)
    let isNil = { (row: Int) in row % 3 == 0 || row % 64 == 63 }
    let values = (0..<rows).map { isNil($0) ? "" : "v\($0)" }
    let utf8 = Array(values.joined().utf8)
    chunk.load(
      rows: rows, byteCount: utf8.count,
      nilBits: { word in
        // Bits past `rows` set at random: they must be ignored.
        var bits = UInt64.random(in: 0...UInt64.max)
        for row in word * 64..<min(rows, word * 64 + 64) {
          let mask = UInt64(1) << UInt64(row % 64)
          bits = isNil(row) ? bits | mask : bits & ~mask
        }
        return bits
      },
      fill: { offsets, bytes in
        var end = 0
        for (row, value) in values.enumerated() {
          end += value.utf8.count
          offsets[row + 1] = UInt32(end)
        }
        bytes.update(from: utf8, count: utf8.count)
      })
    for row in 0..<rows {
      #expect(chunk.isNil(row) == isNil(row), "row \(row)")
      #expect(chunk.optionalString(row) == (isNil(row) ? nil : values[row]), "row \(row)")
    }
    #expect((rows..<StringChunk.capacity).allSatisfy { chunk.isNil($0) })
  }
}
