import Foundation
import Testing

@testable import ModelGraphCore

@Suite("Journal records carry the history; format 1 journals still open")
struct JournalHistoryTests {
  /// Opens `files` as a container does: recovers, restores the history, attaches the journal.
  private func open(_ files: StoreFiles, rewrite: Bool = false) throws -> JournalFixture.Opened {
    let recovered = try files.recover()
    let store = recovered.version.map { Store(loading: $0) } ?? Store()
    store.history.restore(recovered.history)
    try store.register(SnapshotFixture.descriptions)
    let journal = try files.openJournal(
      for: store, after: recovered, rewrite: rewrite || recovered.version == nil,
      durability: .none, preallocation: 0)
    store.attach(journal)
    return JournalFixture.Opened(store: store, journal: journal, report: recovered.report)
  }

  private func versions(_ store: Store) -> [UInt64] {
    store.history.changes(after: 0).map(\.version)
  }

  @Test("replay restores each record's change; the snapshot's history comes first")
  func replayRestores() throws {
    let files = StoreFiles(path: "/sim/h.mgs", io: SimFS())
    let first = try open(files)
    for step in 0..<4 { try JournalFixture.save(step: step, store: first.store) }
    try files.checkpoint(first.store, journal: first.journal)
    for step in 4..<9 { try JournalFixture.save(step: step, store: first.store) }
    let expected = first.store.history.changes(after: 0)
    first.journal.close()
    let second = try open(files)
    #expect(second.report.replayedRecords == 5)
    let restored = second.store.history.changes(after: 0)
    #expect(restored.map(\.version) == expected.map(\.version))
    #expect(restored.map(\.inserted) == expected.map(\.inserted))
    #expect(restored.map(\.updated) == expected.map(\.updated))
    #expect(restored.map(\.deleted) == expected.map(\.deleted))
    #expect(restored.map(\.entities) == expected.map(\.entities))
    #expect(restored.map(\.date) == expected.map(\.date))
    #expect(!restored.allSatisfy { $0.deleted.isEmpty })
  }

  @Test("saves made while history is off leave it empty through their version")
  func recordingOff() throws {
    let files = StoreFiles(path: "/sim/h.mgs", io: SimFS())
    let first = try open(files)
    for step in 0..<3 { try JournalFixture.save(step: step, store: first.store) }
    first.store.history.retention = .init(transactions: 0)
    try JournalFixture.save(step: 3, store: first.store)
    first.store.history.retention = .init()
    try JournalFixture.save(step: 4, store: first.store)
    let last = first.store.version.number
    #expect(first.store.history.droppedThrough == last - 1)
    first.journal.close()
    let second = try open(files)
    #expect(versions(second.store) == [last])
    #expect(second.store.history.droppedThrough == last - 1)
  }

  @Test("a save the retention drops at once writes no change, and recovers the same history")
  func droppedAtOnce() throws {
    let disk = SimFS()
    let files = StoreFiles(path: "/sim/h.mgs", io: disk)
    let first = try open(files)
    first.store.history.retention = .init(transactions: 10, changes: 1)
    try JournalFixture.save(step: 0, store: first.store)
    try JournalFixture.save(step: 1, store: first.store)
    first.store.history.retention = .init()
    try JournalFixture.save(step: 2, store: first.store)
    let expected = versions(first.store)
    let dropped = first.store.history.droppedThrough
    #expect(expected == [first.store.version.number] && dropped == expected[0] - 1)
    first.journal.close()
    // Only the last record carries a change (the catalog flag's bit 7).
    let bytes = try disk.readFile(files.journalPath)
    let flags = try bytes.withUnsafeBytes { raw in
      try JournalReader(raw, path: files.journalPath).records.map {
        raw[$0.payload.lowerBound] & JournalRecord.historyFlag != 0
      }
    }
    #expect(flags == [false, false, true])
    let second = try open(files)
    #expect(versions(second.store) == expected)
    #expect(second.store.history.droppedThrough == dropped)
  }

  @Test("a format 1 journal (no history) replays, starts the history empty and is replaced")
  func formatOneJournal() throws {
    let disk = SimFS()
    let files = StoreFiles(path: "/sim/old.mgs", io: disk)
    let first = try open(files)
    first.store.history.retention = .init(transactions: 0)
    for step in 0..<3 { try JournalFixture.save(step: step, store: first.store) }
    let number = first.store.version.number
    first.journal.close()
    // With history off, the records are those format 1 wrote: mark the header version 1.
    var bytes = try disk.readFile(files.journalPath)
    #expect(bytes[8] == 2)
    bytes[8] = 1
    let crc = CRC32C.checksum(Array(bytes[0..<32]))
    withUnsafeBytes(of: crc.littleEndian) { bytes.replaceSubrange(32..<36, with: $0) }
    try SnapshotFile(path: files.journalPath, io: disk).replace(with: bytes)

    let recovered = try files.recover()
    #expect(recovered.report.replayedRecords == 3)
    #expect(recovered.history.changes.isEmpty && recovered.history.droppedThrough == number)
    let second = try open(files)
    #expect(versions(second.store).isEmpty)
    // Appending to it would mix formats: the store starts a new pair of format 2.
    #expect(try disk.readFile(files.journalPath)[8] == 2)
    #expect(second.journal.size == JournalFormat.headerSize)
    try JournalFixture.save(step: 3, store: second.store)
    second.journal.close()
    let third = try open(files)
    #expect(versions(third.store) == [number + 1])
    #expect(third.store.history.droppedThrough == number)
  }

  @Test("a long journal under a small retention recovers exactly the history the store kept")
  func smallRetention() throws {
    let files = StoreFiles(path: "/sim/h.mgs", io: SimFS())
    let first = try open(files)
    first.store.history.retention = .init(transactions: 3)
    for step in 0..<12 { try JournalFixture.save(step: step, store: first.store) }
    // A save with history off in the middle: its record drops every change before it.
    first.store.history.retention = .init(transactions: 0)
    try JournalFixture.save(step: 12, store: first.store)
    first.store.history.retention = .init(transactions: 3)
    for step in 13..<30 { try JournalFixture.save(step: step, store: first.store) }
    let expected = first.store.history.changes(after: 0)
    let dropped = first.store.history.droppedThrough
    #expect(expected.count == 3)
    first.journal.close()
    let second = try open(files)
    #expect(second.report.replayedRecords == 30)
    let restored = second.store.history.changes(after: 0)
    #expect(restored.map(\.version) == expected.map(\.version))
    #expect(restored.map(\.inserted) == expected.map(\.inserted))
    #expect(restored.map(\.updated) == expected.map(\.updated))
    #expect(restored.map(\.deleted) == expected.map(\.deleted))
    #expect(second.store.history.droppedThrough == dropped)
  }

  @Test("the history kept after a save with history off holds only the saves after it")
  func historyOffLate() throws {
    let files = StoreFiles(path: "/sim/h.mgs", io: SimFS())
    let first = try open(files)
    for step in 0..<5 { try JournalFixture.save(step: step, store: first.store) }
    first.store.history.retention = .init(transactions: 0)
    try JournalFixture.save(step: 5, store: first.store)
    let off = first.store.version.number
    first.store.history.retention = .init()
    for step in 6..<8 { try JournalFixture.save(step: step, store: first.store) }
    let expected = versions(first.store)
    #expect(expected == [off + 1, off + 2])
    // The live store says the same as recovery will: the save with history off is dropped.
    #expect(first.store.history.droppedThrough == off)
    first.journal.close()
    let second = try open(files)
    #expect(versions(second.store) == expected)
    // The record without a change drops the history through its own version.
    #expect(second.store.history.droppedThrough == off)
  }

  @Test("a kept record whose history change is impossible is a clear error")
  func impossibleChange() throws {
    let disk = SimFS()
    let files = StoreFiles(path: "/sim/h.mgs", io: disk)
    let first = try open(files)
    for step in 0..<2 { try JournalFixture.save(step: step, store: first.store) }
    let number = first.store.version.number
    first.journal.close()
    var bytes = try disk.readFile(files.journalPath)
    let generation = bytes.withUnsafeBytes {
      $0.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
    }
    let end = try bytes.withUnsafeBytes { try JournalReader($0, path: "j").validLength }
    bytes.removeSubrange(end...)
    // The history flag, no tables, nothing dropped, then a change cut short.
    var payload: [UInt8] = [JournalRecord.historyFlag, 0, 0, 0, 0]
    withUnsafeBytes(of: UInt64(0).littleEndian) { payload += $0 }
    payload += [0xFF, 0xFF, 0xFF]
    JournalFormat.appendRecord(
      to: &bytes, generation: generation, number: number + 1, payload: payload)
    try SnapshotFile(path: files.journalPath, io: disk).replace(with: bytes)
    let error = try #require(throws: JournalError.self) { try files.recover() }
    #expect(error.code == .malformed, "\(error)")
    #expect(error.message.contains("record of version \(number + 1)"), "\(error)")
  }
}
