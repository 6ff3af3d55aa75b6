import Foundation
import Testing

@testable import ModelGraphCore

@Suite("Snapshot format 5: the history block, and older files without one")
struct SnapshotHistoryTests {
  /// The fixture's store (two saves) with the author set on a third save that updates a trip.
  private func makeStore() throws -> Store {
    let store = try SnapshotFixture.makeStore(trips: 4, deletions: 1)
    let session = Session(store: store)
    session.author = "editor"
    let trips = session.table(SnapshotFixture.trip)
    var live: [Int] = []
    trips.forEachLiveRow { live.append($0) }
    trips.column(1, as: Int64.self)[live[0]] = 99
    session.noteAttributeWrite(entity: SnapshotFixture.trip, row: live[0], slot: 1)
    try session.save()
    return store
  }

  /// What a change says, as comparable text.
  private func summary(_ change: CommittedChange) -> String {
    "\(change.version) \(change.author ?? "-") \(change.date.timeIntervalSinceReferenceDate) "
      + "\(change.inserted) \(change.updated.map { ($0.identifier, $0.attributes.sorted(), $0.relationshipsChanged) }) "
      + "\(change.deleted.map { ($0.identifier, $0.preservedValues.sorted { $0.key < $1.key }) }) "
      + "\(change.entities.map { ($0.entity, $0.name, $0.insertedOrDeleted, $0.attributes.sorted(), $0.relationshipsChanged) })"
  }

  private func file(_ store: Store, format: UInt32) -> [UInt8] {
    var file = SnapshotWriter.write(
      store.version, lineage: SnapshotLineage(generation: 7, previous: 0),
      history: store.history.kept(), lengthLimit: Int(UInt32.max), formatVersion: format)
    return file.bytes
  }

  @Test(
    "every format version reads: 1 to 4 keep no history, 5 keeps what was written", arguments: 1...5
  )
  func everyVersion(format: Int) throws {
    let store = try makeStore()
    let kept = store.history.kept()
    #expect(kept.changes.count == 3 && kept.changes[2].author == "editor")
    let bytes = file(store, format: UInt32(format))
    #expect(bytes[8] == UInt8(format))
    let read = try bytes.withUnsafeBytes { try SnapshotReader.decodeWithHistory($0, path: "f.mgs") }
    #expect(read.version.number == store.version.number)
    #expect(SnapshotWriter.encode(read.version) == SnapshotWriter.encode(store.version))
    if format < 5 {
      #expect(read.history.changes.isEmpty)
      #expect(read.history.droppedThrough == store.version.number)
    } else {
      #expect(read.history.droppedThrough == 0)
      #expect(read.history.changes.map(summary) == kept.changes.map(summary))
    }
  }

  @Test("a store restored from a file without history starts empty, older tokens expired")
  func restoreOld() throws {
    let store = try makeStore()
    let read = try file(store, format: 4).withUnsafeBytes {
      try SnapshotReader.decodeWithHistory($0, path: "f.mgs")
    }
    let loaded = Store(loading: read.version)
    loaded.history.restore(read.history)
    #expect(loaded.history.changes(after: 0).isEmpty)
    #expect(loaded.history.droppedThrough == store.version.number)
  }

  @Test("a damaged history block is a SnapshotError at its offset")
  func damagedBlock() throws {
    let store = try makeStore()
    let bytes = file(store, format: 5)
    let forge = SnapshotForge(bytes)
    let index = try #require(forge.blocks.firstIndex { $0.kind == 5 })
    let start = forge.offset(ofBlock: index)
    // A flipped byte: the checksum names the block.
    var flipped = bytes
    flipped[start + 12 + 20] ^= 0x40
    let checksum = try #require(failure(flipped))
    #expect(checksum.code == .checksumMismatch && checksum.section == "history")
    #expect(checksum.offset == start)
    // Forged with good checksums: a dropped-through version past the snapshot's.
    var past = forge
    past.put(UInt64(1_000), block: index, at: 0)
    let late = try #require(failure(past.assemble()))
    #expect(late.code == .malformed && late.section == "history" && late.offset == start + 12 + 8)
    // A name index past the change's name table.
    var names = forge
    let payload = forge.blocks[index].payload
    // droppedThrough, count, version, author flag 0, date, name count: then the names.
    let nameCount = Int(SnapshotForge.load(UInt64.self, payload, 33))
    var position = 41
    for _ in 0..<nameCount {
      position += 4 + Int(SnapshotForge.load(UInt32.self, payload, position))
    }
    // The first inserted object's name index.
    names.put(UInt32(999), block: index, at: position + 8)
    let badName = try #require(failure(names.assemble()))
    #expect(badName.code == .malformed && badName.section == "history")
    #expect(badName.offset == start + 12 + position + 8)
    #expect(badName.message.contains("name 999"))
    // Cut short: the count promises more changes than the block holds.
    var cut = forge
    cut.put(UInt64(1 << 40), block: index, at: 8)
    let short = try #require(failure(cut.assemble()))
    #expect(short.code == .malformed && short.offset == start + 12 + 8)
  }

  private func failure(_ bytes: [UInt8]) -> SnapshotError? {
    do {
      _ = try SnapshotReader.decode(bytes, path: "bad.mgs")
      return nil
    } catch {
      return error as? SnapshotError
    }
  }
}
