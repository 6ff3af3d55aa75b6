import Foundation
import Testing

@testable import ModelGraphCore

@Suite("Journal: every save is durable and comes back exactly")
struct JournalDurabilityTests {
  @Test("every save survives a reopen without a snapshot, value for value")
  func savesSurviveWithoutSnapshot() throws {
    let directory = try JournalFixture.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let files = StoreFiles(path: "\(directory)/store.mgs")
    let opened = try JournalFixture.open(files)
    for step in 0..<40 { try JournalFixture.save(step: step, store: opened.store) }
    let expected = JournalFixture.bytes(opened.store)
    opened.journal.close()
    let reopened = try JournalFixture.open(files)
    #expect(JournalFixture.bytes(reopened.store) == expected)
    #expect(reopened.report.replayedRecords == 40)
    #expect(reopened.report.droppedBytes == 0 && reopened.report.droppedRecords == 0)
    #expect(reopened.store.version.count(of: SnapshotFixture.trip, deep: true) == 32)
  }

  @Test("records larger than the space written ahead, between small ones, all come back")
  func largeRecords() throws {
    let disk = SimFS()
    let files = StoreFiles(path: "/sim/store.mgs", io: disk)
    let opened = try JournalFixture.open(files)
    for step in 0..<12 {
      let session = Session(store: opened.store)
      if step % 4 == 1 {
        JournalFixture.insertTrip(100 + step, session: session)
        let row = session.changeSet.first { $0.entity == SnapshotFixture.trip }!.insertedRows[0]
        session.table(SnapshotFixture.trip).column(0, as: String.self)[row] = String(
          repeating: "long ", count: 500 + step)
      }
      try JournalFixture.save(step: step, store: opened.store, session: session)
    }
    let expected = JournalFixture.bytes(opened.store)
    disk.restart(powerLoss: true)
    let reopened = try JournalFixture.open(files)
    #expect(JournalFixture.bytes(reopened.store) == expected)
    #expect(reopened.report.replayedRecords == 12 && reopened.report.droppedBytes == 0)
  }

  @Test("a torn tail is cut at the last whole record and reported; saving goes on after it")
  func tornTail() throws {
    let directory = try JournalFixture.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let files = StoreFiles(path: "\(directory)/store.mgs")
    let opened = try JournalFixture.open(files)
    for step in 0..<5 { try JournalFixture.save(step: step, store: opened.store) }
    let expected = JournalFixture.bytes(opened.store)
    opened.journal.close()
    var journal = try SystemFileIO().readFile(files.journalPath)
    let whole = try JournalFixture.recordsLength(journal)
    #expect(journal.count > whole, "zeros are written ahead")
    journal = Array(journal[..<whole]) + journal[(whole - 40)..<(whole - 10)]
    try Data(journal).write(to: URL(fileURLWithPath: files.journalPath))

    let reopened = try JournalFixture.open(files)
    #expect(JournalFixture.bytes(reopened.store) == expected)
    #expect(reopened.report.droppedRecords == 1 && reopened.report.droppedBytes == 30)
    #expect(reopened.report.replayedRecords == 5 && reopened.report.journalBytes == whole + 30)
    #expect(try SystemFileIO().readFile(files.journalPath).count == whole)
    try JournalFixture.save(step: 5, store: reopened.store)
    let after = JournalFixture.bytes(reopened.store)
    reopened.journal.close()
    let third = try JournalFixture.open(files)
    #expect(JournalFixture.bytes(third.store) == after && third.report.droppedBytes == 0)
  }

  @Test("a journal beside a snapshot of another generation is refused with a specific error")
  func foreignJournal() throws {
    let directory = try JournalFixture.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let first = StoreFiles(path: "\(directory)/a.mgs")
    let second = StoreFiles(path: "\(directory)/b.mgs")
    for files in [first, second] {
      let opened = try JournalFixture.open(files)
      try JournalFixture.save(step: 0, store: opened.store)
      opened.journal.close()
    }
    try FileManager.default.removeItem(atPath: second.journalPath)
    try FileManager.default.copyItem(atPath: first.journalPath, toPath: second.journalPath)
    let error = try #require(throws: JournalError.self) { try second.recover() }
    #expect(error.code == .generationMismatch && error.path == second.journalPath)
    try FileManager.default.removeItem(atPath: second.snapshot.path)
    let orphan = try #require(throws: JournalError.self) { try second.recover() }
    #expect(orphan.code == .generationMismatch)
  }

  @Test("a checkpoint restarts the journal; a crash before the restart replays the old tail")
  func checkpoints() throws {
    let directory = try JournalFixture.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let files = StoreFiles(path: "\(directory)/store.mgs")
    let opened = try JournalFixture.open(files)
    for step in 0..<10 { try JournalFixture.save(step: step, store: opened.store) }
    try files.checkpoint(opened.store, journal: opened.journal)
    #expect(opened.journal.size == 36)
    for step in 10..<13 { try JournalFixture.save(step: step, store: opened.store) }
    // A snapshot renamed in, and the journal never restarted (a crash in between).
    let lineage = SnapshotLineage.next(after: opened.journal.generation)
    try files.snapshot.save(opened.store.version, lineage: lineage)
    for step in 13..<15 { try JournalFixture.save(step: step, store: opened.store) }
    let expected = JournalFixture.bytes(opened.store)
    opened.journal.close()
    let reopened = try JournalFixture.open(files)
    #expect(JournalFixture.bytes(reopened.store) == expected)
    #expect(reopened.report.skippedRecords == 3 && reopened.report.replayedRecords == 2)
    // Opening after such a crash started a new pair: saving and reopening keeps working.
    try JournalFixture.save(step: 15, store: reopened.store)
    let after = JournalFixture.bytes(reopened.store)
    reopened.journal.close()
    #expect(try JournalFixture.recoveredBytes(files) == after)
  }

  @Test("ENOSPC and EIO on an append: the save throws, nothing is published, the store goes on")
  func appendFailures() throws {
    for code in [ENOSPC, EIO] {
      let disk = SimFS()
      let files = StoreFiles(path: "/sim/store.mgs", io: disk)
      let opened = try JournalFixture.open(files)
      try JournalFixture.save(step: 0, store: opened.store)
      let before = JournalFixture.bytes(opened.store)
      let journalBefore = disk.contents(of: files.journalPath)
      let session = Session(store: opened.store)
      JournalFixture.insertTrip(1, session: session)
      disk.maximumWriteSize = 20
      disk.inject(.write, errno: code, occurrence: 2)
      let error = try #require(throws: JournalError.self) { try session.save() }
      #expect(error.code == .io && error.message.contains("nothing was saved"))
      #expect(JournalFixture.bytes(opened.store) == before)
      let journalAfter = disk.contents(of: files.journalPath)!
      let whole = try JournalFixture.recordsLength(journalBefore!)
      #expect(try JournalFixture.recordsLength(journalAfter) == whole)
      #expect(journalAfter.prefix(whole) == journalBefore!.prefix(whole))
      #expect(session.hasChanges)
      disk.maximumWriteSize = .max
      try session.save()
      let after = JournalFixture.bytes(opened.store)
      #expect(after != before)
      disk.restart(powerLoss: true)
      #expect(try JournalFixture.recoveredBytes(files) == after)
    }
  }

  @Test("a failed sync refuses later saves with a specific error until the store is reopened")
  func failedSync() throws {
    let disk = SimFS()
    let files = StoreFiles(path: "/sim/store.mgs", io: disk)
    let opened = try JournalFixture.open(files)
    disk.inject(.sync, errno: EIO)
    let error = try #require(throws: JournalError.self) {
      try JournalFixture.save(step: 0, store: opened.store)
    }
    #expect(error.code == .failed)
    let later = try #require(throws: JournalError.self) {
      try JournalFixture.save(step: 1, store: opened.store)
    }
    #expect(later.code == .failed)
  }
}

@Suite("Journal: batched and unsynced durability")
struct JournalRelaxedDurabilityTests {
  @Test("batched: saves return before their sync, and one sync follows within the window")
  func batched() throws {
    let disk = SimFS()
    let files = StoreFiles(path: "/sim/store.mgs", io: disk)
    // A window far longer than five saves take, even under ThreadSanitizer on a busy machine
    // (a 30 ms window let a sync fall between the saves there).
    let opened = try JournalFixture.open(files, durability: .batched(every: .milliseconds(500)))
    let syncs = disk.callCount(.sync)
    for step in 0..<5 { try JournalFixture.save(step: step, store: opened.store) }
    #expect(disk.callCount(.sync) == syncs, "no save waited for a sync")
    let expected = JournalFixture.bytes(opened.store)
    var waited = 0
    while disk.callCount(.sync) == syncs, waited < 500 {
      Thread.sleep(forTimeInterval: 0.01)
      waited += 1
    }
    #expect(disk.callCount(.sync) == syncs + 1, "one sync for the five saves")
    disk.restart(powerLoss: true)
    #expect(try JournalFixture.recoveredBytes(files) == expected)
  }

  @Test("none: saves survive the process but not a power loss; closing syncs them")
  func unsynced() throws {
    let disk = SimFS()
    let files = StoreFiles(path: "/sim/store.mgs", io: disk)
    let opened = try JournalFixture.open(files, durability: .none)
    let before = JournalFixture.bytes(opened.store)
    let syncs = disk.callCount(.sync)
    for step in 0..<3 { try JournalFixture.save(step: step, store: opened.store) }
    #expect(disk.callCount(.sync) == syncs)
    let expected = JournalFixture.bytes(opened.store)
    disk.restart(powerLoss: false)
    #expect(try JournalFixture.recoveredBytes(files) == expected)
    disk.restart(powerLoss: true)
    #expect(try JournalFixture.recoveredBytes(files) == before)

    let again = try JournalFixture.open(files, durability: .none)
    try JournalFixture.save(step: 0, store: again.store)
    let saved = JournalFixture.bytes(again.store)
    again.journal.close()
    disk.restart(powerLoss: true)
    #expect(try JournalFixture.recoveredBytes(files) == saved)
  }
}

@Suite("Journal and snapshot: values too long for the format")
struct OversizedValueTests {
  @Test("a value longer than a record's length field refuses the save; nothing is published")
  func oversizedSave() throws {
    let disk = SimFS()
    let files = StoreFiles(path: "/sim/store.mgs", io: disk)
    let opened = try JournalFixture.open(files)
    try JournalFixture.save(step: 0, store: opened.store)
    let before = JournalFixture.bytes(opened.store)
    // A lower limit stands for 4 GiB, which a test cannot allocate.
    opened.journal.valueLengthLimit = 40
    let session = Session(store: opened.store)
    JournalFixture.insertTrip(1, session: session)
    let row = session.changeSet.first { $0.entity == SnapshotFixture.trip }!.insertedRows[0]
    session.table(SnapshotFixture.trip).column(0, as: String.self)[row] = String(
      repeating: "x", count: 41)
    let error = try #require(throws: JournalError.self) { try session.save() }
    #expect(error.code == .valueTooLarge && error.message.contains("41 bytes"))
    #expect(JournalFixture.bytes(opened.store) == before)
    session.table(SnapshotFixture.trip).column(0, as: String.self)[row] = "short"
    try session.save()
    #expect(opened.store.version.number == 2)
  }

  @Test("a snapshot with a value longer than its length field is refused, not written")
  func oversizedSnapshot() throws {
    let store = try SnapshotFixture.makeStore()
    let error = try #require(throws: SnapshotError.self) {
      _ = try SnapshotWriter.checkedEncode(
        store.version, lineage: SnapshotLineage(), path: "big.mgs", lengthLimit: 5)
    }
    #expect(error.code == .valueTooLarge && error.path == "big.mgs")
    #expect(
      try SnapshotWriter.checkedEncode(store.version, path: "ok.mgs")
        == SnapshotWriter.encode(store.version))
  }
}
