import Foundation
import Testing

@testable import ModelGraphCore

@Suite("Journal: group commit")
struct JournalGroupCommitTests {
  /// Runs `body(thread)` on `count` threads that start together; returns once all finished.
  private static func together(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    let ready = DispatchSemaphore(value: 0)
    let go = DispatchSemaphore(value: 0)
    for thread in 0..<count {
      group.enter()
      Thread.detachNewThread {
        defer { group.leave() }
        ready.signal()
        go.wait()
        body(thread)
      }
    }
    for _ in 0..<count { ready.wait() }
    for _ in 0..<count { go.signal() }
    group.wait()
  }

  /// Four threads, started together, each inserting and saving 25 trips one save at a time
  /// on its own session of `store`.
  ///
  /// - Returns: The errors the saves threw, as text.
  private static func saveHundredTripsFromFourThreads(into store: Store) -> [String] {
    let failures = Locked<[String]>([])
    together(4) { thread in
      let session = Session(store: store)
      for index in 0..<25 {
        JournalFixture.insertTrip(thread * 100 + index, session: session)
        do { try session.save() } catch { failures.withLock { $0.append("\(error)") } }
      }
    }
    return failures.withLock { $0 }
  }

  @Test("saves of four threads share syncs; all of them come back, as the store holds them")
  func concurrentSavesShareSyncs() throws {
    let disk = SimFS(directories: ["/sim"])
    let files = StoreFiles(path: "/sim/store.mgs", io: disk)
    let opened = try JournalFixture.open(files)
    disk.syncDataDelay = 2_000
    let syncsBefore = disk.callCount(.sync)
    #expect(Self.saveHundredTripsFromFourThreads(into: opened.store) == [])
    let syncs = disk.callCount(.sync) - syncsBefore
    #expect(syncs < 100, "\(syncs) syncs for 100 saves")
    let saved = JournalFixture.bytes(opened.store)
    disk.restart(powerLoss: true)
    let recovered = try files.recover()
    #expect(recovered.report.replayedRecords == 100)
    let version = try #require(recovered.version)
    #expect(SnapshotWriter.encode(version) == saved)
    #expect(version.tables[SnapshotFixture.trip].liveCount == 100)
  }

  @Test("the journal counts its records, the syncs that made them durable and their time")
  func countsRecordsAndSyncs() throws {
    let disk = SimFS(directories: ["/sim"])
    let files = StoreFiles(path: "/sim/store.mgs", io: disk)
    let opened = try JournalFixture.open(files)
    let start = opened.journal.counters
    let syncsBefore = disk.callCount(.sync)
    for step in 0..<5 { try JournalFixture.save(step: step, store: opened.store) }
    let alone = opened.journal.counters
    // A lone writer: one record and one sync per save.
    #expect(alone.records - start.records == 5)
    #expect(alone.syncs - start.syncs == 5)
    disk.syncDataDelay = 2_000
    #expect(Self.saveHundredTripsFromFourThreads(into: opened.store) == [])
    let end = opened.journal.counters
    #expect(end.records - alone.records == 100)
    // Every sync of the file a save waited for is counted, and only those.
    #expect(end.syncs - start.syncs == disk.callCount(.sync) - syncsBefore)
    // With the delay, each of the later syncs took at least 2 ms.
    #expect(
      end.syncNanoseconds - alone.syncNanoseconds >= UInt64(end.syncs - alone.syncs) * 2_000_000)
  }

  @Test("once syncs were shared, the thread about to sync waits for the save under way")
  func gathersTheSaveUnderWay() throws {
    let disk = SimFS(directories: ["/sim"])
    let files = StoreFiles(path: "/sim/store.mgs", io: disk)
    let opened = try JournalFixture.open(files)
    // As after a sync that covered the records of two saves and took ten seconds: the thread
    // about to sync waits that long for a second record. Set directly, so the test does not
    // depend on how threads were scheduled around earlier syncs (shared syncs themselves are
    // `concurrentSavesShareSyncs`); the syncs here are instant.
    opened.journal.gatherLimit = 10_000_000_000
    opened.journal.assumeLastSync(batch: 2, nanoseconds: 10_000_000_000)
    let failures = Locked<[String]>([])
    let before = disk.callCount(.sync)
    Self.together(2) { thread in
      let session = Session(store: opened.store)
      JournalFixture.insertTrip(10 + thread, session: session)
      do { try session.save() } catch { failures.withLock { $0.append("\(error)") } }
    }
    #expect(failures.withLock { $0 } == [])
    // Without the wait, the first save to append syncs alone and the second takes the next.
    #expect(disk.callCount(.sync) - before == 1, "two saves started together took two syncs")
    disk.restart(powerLoss: true)
    let trips = try #require(files.recover().version).tables[SnapshotFixture.trip]
    var names: Set<String> = []
    trips.forEachLiveRow { names.insert(trips.column(0, as: String.self)[$0]) }
    #expect(names == ["trip 10", "trip 11"])
  }

  @Test("a failed shared sync fails every save it covered; later saves are refused")
  func failedSharedSync() throws {
    let disk = SimFS(directories: ["/sim"])
    let files = StoreFiles(path: "/sim/store.mgs", io: disk)
    let opened = try JournalFixture.open(files)
    disk.syncDataDelay = 2_000
    disk.inject(.sync, errno: EIO, occurrence: disk.callCount(.sync) + 8)
    let acknowledged = Locked<Set<String>>([])
    let errors = Locked<[JournalError.Code]>([])
    Self.together(4) { thread in
      let session = Session(store: opened.store)
      for index in 0..<50 {
        let trip = thread * 100 + index
        JournalFixture.insertTrip(trip, session: session)
        do {
          try session.save()
          acknowledged.withLock { _ = $0.insert("trip \(trip)") }
        } catch let error as JournalError {
          errors.withLock { $0.append(error.code) }
          return
        } catch {
          errors.withLock { $0.append(.io) }
          return
        }
      }
    }
    // Every thread stopped at a failure, and every failure is the failed sync's.
    #expect(errors.withLock { $0 }.count == 4)
    #expect(errors.withLock { $0 }.allSatisfy { $0 == .failed })
    let later = try #require(throws: JournalError.self) {
      try JournalFixture.save(step: 99, store: opened.store)
    }
    #expect(later.code == .failed)
    disk.restart(powerLoss: true)
    let trips = try #require(files.recover().version).tables[SnapshotFixture.trip]
    var names: Set<String> = []
    trips.forEachLiveRow { names.insert(trips.column(0, as: String.self)[$0]) }
    let saved = acknowledged.withLock { $0 }
    #expect(!saved.isEmpty)
    #expect(saved.isSubset(of: names), "lost: \(saved.subtracting(names).sorted().prefix(5))")
  }
}
