import Dispatch
import Foundation
import Testing

@testable import ModelGraphCore

/// A ``SimFS`` whose rename onto `held` waits until the test lets it go, so saves can run while
/// a checkpoint is between its snapshot write and its journal restart.
private struct HoldingIO: ForwardingFileIO {
  let base: SimFS
  let held: String
  let reached = DispatchSemaphore(value: 0)
  let release = DispatchSemaphore(value: 0)

  func rename(_ from: String, _ to: String) throws {
    if to == held {
      reached.signal()
      release.wait()
    }
    try base.rename(from, to)
  }
}

@Suite("Journal: saves during a checkpoint")
struct JournalCheckpointTests {
  @Test("saves made while a checkpoint writes its snapshot move into the new journal")
  func savesDuringCheckpoint() throws {
    let disk = SimFS()
    let plain = StoreFiles(path: "/sim/store.mgs", io: disk)
    let opened = try JournalFixture.open(plain)
    for step in 0..<4 { try JournalFixture.save(step: step, store: opened.store) }
    let captured = opened.store.version.number
    let io = HoldingIO(base: disk, held: "/sim/store.mgs")
    let files = StoreFiles(path: "/sim/store.mgs", io: io)
    let done = DispatchSemaphore(value: 0)
    let outcome = Outcome()
    Thread.detachNewThread {
      do { try files.checkpoint(opened.store, journal: opened.journal) } catch {
        outcome.error = "\(error)"
      }
      done.signal()
    }
    io.reached.wait()
    // The snapshot of `captured` is written, not yet renamed in: saves go on meanwhile.
    for step in 4..<7 { try JournalFixture.save(step: step, store: opened.store) }
    let expected = JournalFixture.bytes(opened.store)
    io.release.signal()
    done.wait()
    #expect(outcome.error == nil)
    let journal = disk.contents(of: plain.journalPath)!
    let reader = try journal.withUnsafeBytes { try JournalReader($0, path: "journal") }
    #expect(reader.base == captured)
    #expect(reader.records.map(\.number) == [captured + 1, captured + 2, captured + 3])
    #expect(reader.generation == opened.journal.generation)
    try JournalFixture.save(step: 7, store: opened.store)
    let after = JournalFixture.bytes(opened.store)
    disk.restart(powerLoss: true)
    let reopened = try JournalFixture.open(plain)
    #expect(JournalFixture.bytes(reopened.store) == after)
    #expect(reopened.report.replayedRecords == 4 && reopened.report.skippedRecords == 0)
    #expect(expected != after)
  }

  @Test("a new journal that already passes the threshold asks for the next checkpoint")
  func thresholdPassedByKeptRecords() throws {
    let disk = SimFS()
    let plain = StoreFiles(path: "/sim/store.mgs", io: disk)
    let opened = try JournalFixture.open(plain, threshold: 1)
    let requests = Outcome()
    opened.journal.onThresholdReached { requests.count += 1 }
    try JournalFixture.save(step: 0, store: opened.store)
    #expect(requests.count == 1, "the first record passes a 1-byte threshold")
    let io = HoldingIO(base: disk, held: "/sim/store.mgs")
    let files = StoreFiles(path: "/sim/store.mgs", io: io)
    let done = DispatchSemaphore(value: 0)
    let outcome = Outcome()
    Thread.detachNewThread {
      do { try files.checkpoint(opened.store, journal: opened.journal) } catch {
        outcome.error = "\(error)"
      }
      done.signal()
    }
    io.reached.wait()
    // Saves while the checkpoint runs: one request is outstanding, so none asks again.
    for step in 1..<3 { try JournalFixture.save(step: step, store: opened.store) }
    #expect(requests.count == 1)
    io.release.signal()
    done.wait()
    #expect(outcome.error == nil)
    // The new journal holds the two records saved meanwhile, past the threshold: with no save
    // to come, the checkpoint itself must ask for the next one.
    #expect(opened.journal.size > 1)
    #expect(requests.count == 2)
  }
}

/// What the checkpoint thread reports.
private final class Outcome: @unchecked Sendable {
  // @unchecked Sendable: written by the checkpoint thread before it signals, read after; the
  // count is written by the journal's threshold action, which runs inside the saves and the
  // checkpoint that the test waits for.
  var error: String?
  var count = 0
}
