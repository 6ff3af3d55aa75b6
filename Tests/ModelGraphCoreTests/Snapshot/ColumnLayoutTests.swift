import Foundation
import Testing

@testable import ModelGraphCore

/// Format version 4's whole-column layouts (strings as an arena plus offsets, `Bool` bytes, raw
/// keys, key lists), and the older versions still read.
@Suite("Snapshot column layouts (format 4) and older versions")
struct ColumnLayoutTests {
  let store: Store
  let file: [UInt8]

  init() throws {
    store = try SnapshotFixture.makeStore(trips: 13, deletions: 2)
    // Format 5: the last to write 4-byte string offsets and fixed-size keys, which the tests
    // below forge (format 6's compact layouts have tests of their own).
    file = SnapshotWriter.encode(store.version, formatVersion: 5)
  }

  /// The offset of the layout in a column block's payload: entity, role, slot, row count.
  let layout = 4 + 1 + 4 + 8

  private func failure(_ bytes: [UInt8]) -> SnapshotError? {
    do {
      _ = try SnapshotReader.decode(bytes, path: "bad.mgs")
      Issue.record("decoded without an error")
      return nil
    } catch let error as SnapshotError {
      #expect(error.offset.map { $0 >= 0 && $0 <= bytes.count } == true)
      return error
    } catch {
      Issue.record("not a SnapshotError: \(error)")
      return nil
    }
  }

  private func forged(_ change: (inout SnapshotForge) -> Void) throws -> SnapshotError {
    var forge = SnapshotForge(file)
    change(&forge)
    return try #require(failure(forge.assemble()))
  }

  private func rows(_ forge: SnapshotForge, _ block: Int) -> Int {
    Int(SnapshotForge.load(UInt64.self, forge.blocks[block].payload, 9))
  }

  @Test(
    "a file of every format version, 1 to the newest, reads back the same store",
    arguments: 1...Int(SnapshotFormat.version))
  func everyVersion(format: Int) throws {
    let old = SnapshotWriter.encode(
      store.version, lineage: SnapshotLineage(generation: 5, previous: 4),
      formatVersion: UInt32(format))
    #expect(old[8] == UInt8(format))
    let decoded = try SnapshotReader.decodeWithLineage(old, path: "old.mgs")
    #expect(
      SnapshotWriter.encode(decoded.version)
        == SnapshotWriter.encode(store.version))
    #expect(decoded.lineage.generation == (format >= 2 ? 5 : 0))
  }

  @Test("format 4 writes the layouts: string offsets, bitmap, Bool bytes, raw keys, key counts")
  func layoutBytes() throws {
    let forge = SnapshotForge(file)
    let name = forge.column(entity: 0, role: 1, slot: 0)
    let count = rows(forge, name)
    let payload = forge.blocks[name].payload
    #expect(payload[layout] == 4)
    let arenaLength = Int(SnapshotForge.load(UInt64.self, payload, layout + 1 + count * 4))
    #expect(payload.count == layout + 1 + count * 4 + 8 + arenaLength)
    let lastEnd = Int(SnapshotForge.load(UInt32.self, payload, layout + 1 + (count - 1) * 4))
    #expect(lastEnd == arenaLength)
    let arena = String(decoding: payload.suffix(arenaLength), as: UTF8.self)
    // Rows 0 and 1 were deleted: their strings are empty.
    #expect(arena.hasPrefix("trip 3trip 4"))
    let flag = forge.column(entity: 0, role: 1, slot: 4)
    #expect(forge.blocks[flag].payload.count == layout + rows(forge, flag))
    let stayTrip = forge.column(entity: 2, role: 2, slot: 0)
    let keys = forge.blocks[stayTrip].payload
    // Keys of 1-byte entities; a generation shared by all keys is written once.
    #expect(keys[layout] == 1)
    let shared = keys[layout + 1] == 1
    let keySize = shared ? 5 : 9
    #expect(keys.count == layout + 2 + (shared ? 4 : 0) + keySize * rows(forge, stayTrip))
    let note = forge.column(entity: 0, role: 1, slot: 2)
    // Of the trips' rows 0 to 7 (0 and 1 deleted), rows 3, 4 and 7 hold a note (trips 4, 6 and
    // 10); the bitmap comes first.
    #expect(forge.blocks[note].payload[layout] == 0b1001_1000)
  }

  @Test("string offsets of 8 bytes read as those of 4")
  func wideOffsets() throws {
    var forge = SnapshotForge(file)
    let name = forge.column(entity: 0, role: 1, slot: 0)
    let count = rows(forge, name)
    let payload = forge.blocks[name].payload
    var wide = Array(payload[..<layout]) + [8]
    for row in 0..<count {
      let end = SnapshotForge.load(UInt32.self, payload, layout + 1 + row * 4)
      SnapshotForge.append(UInt64(end), to: &wide)
    }
    wide += payload[(layout + 1 + count * 4)...]
    forge.blocks[name].payload = wide
    let decoded = try SnapshotReader.decode(forge.assemble(), path: "wide.mgs")
    #expect(SnapshotWriter.encode(decoded, formatVersion: 5) == file)
  }

  @Test("damaged string offsets, arenas and bitmaps give specific errors")
  func hostileStrings() throws {
    let width = try forged { forge in
      forge.blocks[forge.column(entity: 0, role: 1, slot: 0)].payload[layout] = 3
    }
    #expect(width.code == .malformed && width.message.contains("4 or 8"))
    #expect(width.section == "table Trip column name")
    let beyond = try forged { forge in
      forge.put(UInt32(1 << 30), block: forge.column(entity: 0, role: 1, slot: 0), at: layout + 1)
    }
    #expect(beyond.code == .malformed && beyond.message.contains("row 0's string ends"))
    let backwards = try forged { forge in
      let block = forge.column(entity: 0, role: 1, slot: 0)
      let second = SnapshotForge.load(UInt32.self, forge.blocks[block].payload, layout + 5)
      forge.put(second + 1, block: block, at: layout + 1)
    }
    #expect(backwards.code == .malformed && backwards.message.contains("row 1's string ends"))
    let short = try forged { forge in
      let block = forge.column(entity: 0, role: 1, slot: 0)
      let count = rows(forge, block)
      let at = layout + 1 + (count - 1) * 4
      forge.put(
        SnapshotForge.load(UInt32.self, forge.blocks[block].payload, at) - 1, block: block, at: at)
    }
    #expect(short.code == .malformed && short.message.contains("the arena at"))
    let utf8 = try forged { forge in
      let block = forge.column(entity: 0, role: 1, slot: 0)
      forge.blocks[block].payload[layout + 1 + rows(forge, block) * 4 + 8] = 0xFF
    }
    #expect(utf8.code == .malformed && utf8.message.contains("row 2's string is not valid UTF-8"))
    let arena = try forged { forge in
      let block = forge.column(entity: 0, role: 1, slot: 0)
      forge.put(UInt64(1) << 50, block: block, at: layout + 1 + rows(forge, block) * 4)
    }
    #expect(arena.code == .malformed || arena.code == .truncated)
    let absent = try forged { forge in
      forge.blocks[forge.column(entity: 0, role: 1, slot: 2)].payload[layout] &= 0b1111_0111
    }
    #expect(absent.code == .malformed && absent.message.contains("row 3 has no value but 6 bytes"))
    let padding = try forged { forge in
      let block = forge.column(entity: 0, role: 1, slot: 2)
      let count = rows(forge, block)
      forge.blocks[block].payload[layout + count / 8] |= 0x80
    }
    #expect(padding.code == .malformed && padding.message.contains("past the last row"))
  }

  @Test("strings beyond ASCII read back; a damaged multi-byte sequence is refused")
  func unicodeStrings() throws {
    let names = ["Zürich ✈︎", "東京", "plain", "🇫🇷 Paris"]
    let unicode = try SnapshotFixture.makeStore(trips: 4, deletions: 0)
    let session = Session(store: unicode)
    let table = session.table(SnapshotFixture.trip)
    let rows = table.column(0, as: String.self).count
    for row in 0..<rows {
      table.column(0, as: String.self)[row] = names[row % names.count]
      session.noteAttributeWrite(entity: SnapshotFixture.trip, row: row, slot: 0)
    }
    try session.save()
    let bytes = SnapshotWriter.encode(unicode.version)
    let decoded = try SnapshotReader.decode(bytes, path: "unicode.mgs")
    let column = decoded.tables[SnapshotFixture.trip].column(0, as: String.self)
    #expect((0..<rows).map { column[$0] } == (0..<rows).map { names[$0 % names.count] })
    var forge = SnapshotForge(bytes)
    let block = forge.column(entity: 0, role: 1, slot: 0)
    let at = forge.blocks[block].payload.firstRange(of: Array("ü".utf8))!.lowerBound
    forge.blocks[block].payload[at + 1] = UInt8(ascii: "(")
    let error = try #require(failure(forge.assemble()))
    #expect(error.code == .malformed && error.message.contains("row 0's string is not valid UTF-8"))
  }

  @Test("a Bool byte other than 0 or 1 is refused at its offset")
  func hostileBool() throws {
    var forge = SnapshotForge(file)
    let block = forge.column(entity: 0, role: 1, slot: 4)
    forge.blocks[block].payload[layout + 1] = 2
    let error = try #require(failure(forge.assemble()))
    #expect(error.code == .malformed && error.message.contains("2 is not a Bool"))
    #expect(error.offset == forge.offset(ofBlock: block) + 12 + layout + 1)
  }

  /// Rewrites Stay.trip with 4-byte entities and a generation per key: `first` as row 0's
  /// key (12 bytes), every other row absent.
  private func rewriteStayTrip(_ forge: inout SnapshotForge, first: [UInt8]) {
    let block = forge.column(entity: 2, role: 2, slot: 0)
    let count = rows(forge, block)
    forge.blocks[block].payload =
      Array(forge.blocks[block].payload[..<layout]) + [4, 0] + first
      + Array(repeating: 0xFF, count: 12 * (count - 1))
  }

  private func key(_ entity: UInt32, _ row: UInt32, _ generation: UInt32 = 0) -> [UInt8] {
    var bytes: [UInt8] = []
    for value in [entity, row, generation] { SnapshotForge.append(value, to: &bytes) }
    return bytes
  }

  @Test("to-one keys: dangling, foreign and half-absent keys are refused")
  func hostileKeys() throws {
    let dangling = try forged { rewriteStayTrip(&$0, first: key(0, 1_000_000)) }
    #expect(dangling.section == "table Stay column trip" && dangling.message.contains("not a Trip"))
    let foreign = try forged { rewriteStayTrip(&$0, first: key(2, 0)) }
    #expect(foreign.code == .malformed && foreign.message.contains("not a Trip"))
    let half = try forged { rewriteStayTrip(&$0, first: key(UInt32.max, 0)) }
    #expect(half.code == .malformed && half.message.contains("damaged absent key"))
    let width = try forged { forge in
      forge.blocks[forge.column(entity: 2, role: 2, slot: 0)].payload[layout] = 3
    }
    #expect(width.code == .malformed && width.message.contains("1, 2 or 4 expected"))
    let flag = try forged { forge in
      forge.blocks[forge.column(entity: 2, role: 2, slot: 0)].payload[layout + 1] = 2
    }
    #expect(flag.code == .malformed && flag.message.contains("not a generation flag"))
    // Wide keys with their own generations read too; absent ones as no trip.
    var forge = SnapshotForge(file)
    rewriteStayTrip(&forge, first: key(0, 2, store.version.tables[0].generation(of: 2)))
    let decoded = try SnapshotReader.decode(forge.assemble(), path: "wide.mgs")
    let trips = try #require(decoded.tables[2].relationshipColumns[0] as? Column<ObjectKey?>)
    #expect(trips[0]?.row == 2 && trips[0]?.entity == 0)
    #expect((1..<trips.count).allSatisfy { trips[$0] == nil })
  }

  @Test("to-many keys: counts that disagree with the total or the bytes are refused")
  func hostileKeyLists() throws {
    let stays = { (forge: SnapshotForge) in forge.column(entity: 0, role: 2, slot: 0) }
    let sum = try forged { forge in
      let block = stays(forge)
      let first = SnapshotForge.load(UInt32.self, forge.blocks[block].payload, layout)
      forge.put(first + 1, block: block, at: layout)
    }
    #expect(sum.code == .malformed && sum.message.contains("keys, the column says"))
    let huge = try forged { forge in
      let block = stays(forge)
      forge.put(UInt64(1) << 40, block: block, at: layout + 4 * rows(forge, block))
    }
    #expect(huge.code == .malformed && huge.section == "table Trip column stays")
    let dangling = try forged { forge in
      let block = stays(forge)
      let header = layout + 4 * rows(forge, block) + 8
      let shared = forge.blocks[block].payload[header + 1] == 1
      // The first key's row, after its 1-byte entity.
      forge.put(UInt32(999), block: block, at: header + 2 + (shared ? 4 : 0) + 1)
    }
    #expect(dangling.code == .malformed && dangling.message.contains("not a Stay"))
  }
}
