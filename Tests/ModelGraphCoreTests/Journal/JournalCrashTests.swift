import Foundation
import Testing

@testable import ModelGraphCore

@Suite("Journal: a crash or power loss at every I/O step loses nothing acknowledged")
struct JournalCrashTests {
  @Test("a save's append and sync")
  func append() throws {
    let matrix = JournalCrashMatrix(
      prepare: { files in
        let opened = try JournalFixture.open(files)
        for step in 0..<4 { try JournalFixture.save(step: step, store: opened.store) }
        return opened
      },
      operation: { _, opened, live in
        live.store = opened!.store
        try JournalFixture.save(step: 4, store: opened!.store)
      })
    let (problems, steps) = try matrix.run()
    #expect(steps >= 2)
    #expect(problems.isEmpty, "\(problems)")
  }

  @Test("a save whose record is written in many short writes")
  func shortWrites() throws {
    let matrix = JournalCrashMatrix(
      prepare: { files in
        let opened = try JournalFixture.open(files)
        try JournalFixture.save(step: 0, store: opened.store)
        (files.io as! SimFS).maximumWriteSize = 64
        return opened
      },
      operation: { _, opened, live in
        live.store = opened!.store
        try JournalFixture.save(step: 1, store: opened!.store)
      })
    let (problems, steps) = try matrix.run()
    #expect(steps >= 5)
    #expect(problems.isEmpty, "\(problems)")
  }

  @Test("a checkpoint: new snapshot, then a new journal")
  func checkpoint() throws {
    let matrix = JournalCrashMatrix(
      prepare: { files in
        let opened = try JournalFixture.open(files)
        for step in 0..<6 { try JournalFixture.save(step: step, store: opened.store) }
        return opened
      },
      operation: { files, opened, live in
        live.store = opened!.store
        try files.checkpoint(opened!.store, journal: opened!.journal)
      })
    let (problems, steps) = try matrix.run()
    #expect(steps >= 8)
    #expect(problems.isEmpty, "\(problems)")
  }

  @Test("opening new files: the first snapshot and journal, then a save")
  func firstOpen() throws {
    let matrix = JournalCrashMatrix(
      prepare: { _ in nil },
      operation: { files, _, live in
        let opened = try JournalFixture.open(files)
        live.store = opened.store
        try JournalFixture.save(step: 0, store: opened.store)
      })
    let (problems, steps) = try matrix.run()
    #expect(steps >= 10)
    #expect(problems.isEmpty, "\(problems)")
  }

  @Test("a recovery that cuts a torn tail, then a save")
  func recovery() throws {
    let matrix = JournalCrashMatrix(
      prepare: { files in
        let opened = try JournalFixture.open(files)
        for step in 0..<3 { try JournalFixture.save(step: step, store: opened.store) }
        opened.journal.close()
        let disk = files.io as! SimFS
        let journal = disk.contents(of: files.journalPath)!
        let whole = try JournalFixture.recordsLength(journal)
        disk.place(
          Array(journal[..<whole]) + journal[(whole - 50)..<(whole - 20)], at: files.journalPath)
        return nil
      },
      operation: { files, _, live in
        let opened = try JournalFixture.open(files)
        live.store = opened.store
        try JournalFixture.save(step: 3, store: opened.store)
      })
    let (problems, steps) = try matrix.run()
    #expect(steps >= 4)
    #expect(problems.isEmpty, "\(problems)")
  }

  @Test("negative control: a journal that skips its sync loses acknowledged saves")
  func skippedSync() throws {
    let matrix = JournalCrashMatrix(
      prepare: { files in
        let opened = try JournalFixture.open(files)
        try JournalFixture.save(step: 0, store: opened.store)
        opened.journal.close()
        return nil
      },
      operation: { files, _, live in
        let skipping = StoreFiles(
          path: files.snapshot.path,
          io: SkippingIO(base: files.io as! SimFS, skipped: [.sync]))
        let opened = try JournalFixture.open(skipping)
        live.store = opened.store
        try JournalFixture.save(step: 1, store: opened.store)
      })
    let (problems, _) = try matrix.run()
    #expect(problems.contains { $0.contains("power loss: an acknowledged operation was lost") })
  }
}
