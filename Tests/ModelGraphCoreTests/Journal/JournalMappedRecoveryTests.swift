import Foundation
import Synchronization
import Testing

@testable import ModelGraphCore

/// The real file system, counting by path the files read whole and the files mapped.
private struct ReadCountingIO: ForwardingFileIO {
  final class Counts: Sendable {
    let reads = Mutex<[String: Int]>([:])
    let maps = Mutex<[String: Int]>([:])
  }

  let base = SystemFileIO()
  let counts = Counts()

  func readFile(_ path: String) throws -> [UInt8] {
    counts.reads.withLock { $0[path, default: 0] += 1 }
    return try base.readFile(path)
  }
  func withSnapshotContents<Result>(
    of path: String, _ body: (UnsafeRawBufferPointer) throws -> Result
  ) throws -> Result {
    counts.maps.withLock { $0[path, default: 0] += 1 }
    return try base.withSnapshotContents(of: path, body)
  }
}

@Suite("Journal recovery under the files' lock maps the journal")
struct JournalMappedRecoveryTests {
  /// A store of `saves` journaled saves on the real file system, its journal closed; returns
  /// the files and the store's bytes.
  private func journaled(_ saves: Int, io: ReadCountingIO) throws -> (StoreFiles, [UInt8]) {
    let directory = try JournalFixture.temporaryDirectory()
    let files = StoreFiles(path: directory + "/store.mgs", io: io)
    let opened = try JournalFixture.open(files)
    for step in 0..<saves { try JournalFixture.save(step: step, store: opened.store) }
    opened.journal.close()
    return (files, JournalFixture.bytes(opened.store))
  }

  /// Writes `bytes` at `offset` of the file at `path`.
  private func overwrite(_ path: String, at offset: Int, with bytes: [UInt8]) throws {
    let system = SystemFileIO()
    let descriptor = try system.openForWriting(path)
    defer { try? system.close(descriptor) }
    _ = try bytes.withUnsafeBytes { try system.write(descriptor, $0, at: offset) }
  }

  @Test("a torn tail is cut at the last whole record and reported, as when the journal is read")
  func tornTail() throws {
    let io = ReadCountingIO()
    let (files, saved) = try journaled(30, io: io)
    let journal = try SystemFileIO().readFile(files.journalPath)
    let length = try JournalFixture.recordsLength(journal)
    // The start of a record (its header and part of its payload) after the last whole one,
    // over the zeros written ahead: an append cut short by a crash.
    let torn = Array(journal[JournalFormat.headerSize..<JournalFormat.headerSize + 40])
    try overwrite(files.journalPath, at: length, with: torn)

    let read = try files.recover()
    let mapped = try files.recover(holdingLock: true)
    #expect(io.counts.reads.withLock { $0[files.journalPath] } == 1)
    #expect(io.counts.maps.withLock { $0[files.journalPath] } == 1)
    #expect(mapped.report == read.report)
    #expect(mapped.report.replayedRecords == 30)
    #expect(mapped.report.droppedRecords == 1)
    #expect(mapped.report.droppedBytes == journal.count - length)
    #expect(mapped.version.map { SnapshotWriter.encode($0) } == saved)

    // The cut tail is gone once the journal opens for appending; later saves survive.
    let opened = try JournalFixture.open(files)
    #expect(opened.report.droppedRecords == 1)
    try JournalFixture.save(step: 30, store: opened.store)
    let expected = JournalFixture.bytes(opened.store)
    opened.journal.close()
    let again = try files.recover(holdingLock: true)
    #expect(again.report.droppedBytes == 0 && again.report.replayedRecords == 31)
    #expect(again.version.map { SnapshotWriter.encode($0) } == expected)
  }

  @Test("a damaged record in the middle cuts from it, mapped or read")
  func damagedMiddle() throws {
    let io = ReadCountingIO()
    let (files, _) = try journaled(12, io: io)
    let journal = try SystemFileIO().readFile(files.journalPath)
    let records = try journal.withUnsafeBytes {
      try JournalReader($0, path: files.journalPath).records
    }
    let victim = records[7]
    try overwrite(
      files.journalPath, at: victim.payload.lowerBound + 3,
      with: [journal[victim.payload.lowerBound + 3] ^ 0x10])
    let read = try files.recover()
    let mapped = try files.recover(holdingLock: true)
    #expect(mapped.report == read.report)
    #expect(mapped.report.replayedRecords == 7)
    #expect(mapped.report.droppedRecords == 5)
    #expect(
      mapped.version.map { SnapshotWriter.encode($0) }
        == read.version.map { SnapshotWriter.encode($0) })
  }
}
