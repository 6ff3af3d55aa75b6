import Foundation
import ModelGraph
import ModelGraphCore
import Synchronization
import Testing

@Suite("Container journal: save() persists without snapshot()")
struct ContainerJournalTests {
  @Test("100 saves, one object each, survive the container without a snapshot")
  func savesPersist() throws {
    let scratch = try SnapshotScratch()
    do {
      let container = try ModelContainer(
        for: Trip.self, configurations: ModelConfiguration(url: scratch.store))
      let context = ModelContext(container)
      for index in 0..<100 {
        context.insert(
          index.isMultiple(of: 10)
            ? BusinessTrip(name: "trip \(index)", company: "Acme") : Trip(name: "trip \(index)"))
        try context.save()
      }
      let renamed = try context.fetch(FetchDescriptor<Trip>()).first { $0.name == "trip 3" }!
      renamed.name = "renamed"
      try context.save()
    }
    let container = try ModelContainer(
      for: Trip.self, configurations: ModelConfiguration(url: scratch.store))
    #expect(container.recoveryReport.replayedRecords == 101)
    #expect(container.recoveryReport.droppedBytes == 0)
    let context = ModelContext(container)
    let trips = try context.fetch(FetchDescriptor<Trip>())
    #expect(trips.count == 100)
    #expect(trips.filter { $0 is BusinessTrip }.count == 10)
    #expect(trips.contains { $0.name == "renamed" } && !trips.contains { $0.name == "trip 3" })
  }

  @Test("saves appended while a sync runs share the next sync, and all survive")
  func groupCommit() throws {
    let scratch = try SnapshotScratch()
    let io = CountingFileIO()
    let counter = io.counter
    do {
      let container = try ModelContainer(
        for: [Trip.self], configurations: [ModelConfiguration(url: scratch.store)], fileIO: io)
      /// Saves one trip from a context of a new thread.
      func save(_ name: String, _ group: DispatchGroup) {
        group.enter()
        Thread.detachNewThread {
          let context = ModelContext(container)
          context.insert(Trip(name: name))
          try! context.save()
          group.leave()
        }
      }
      for round in 0..<3 {
        let group = DispatchGroup()
        let records = counter.records.load(ordering: .relaxed)
        let syncs = counter.syncs.load(ordering: .relaxed)
        // The first save's sync is held until three more saves have appended their records.
        counter.holdsNextSync.store(true, ordering: .releasing)
        save("r\(round)-0", group)
        counter.entered.wait()
        for thread in 1...3 { save("r\(round)-\(thread)", group) }
        while counter.records.load(ordering: .relaxed) < records + 4 { usleep(1_000) }
        counter.release.signal()
        group.wait()
        // The held sync covered the first record; one sync covered the other three, run at
        // once by the thread of the held sync.
        #expect(counter.records.load(ordering: .relaxed) == records + 4)
        #expect(counter.syncs.load(ordering: .relaxed) - syncs == 2)
        let threads = counter.syncThreads.withLock { $0.suffix(2) }
        #expect(threads.count == 2 && pthread_equal(threads.first!, threads.last!) != 0)
      }
    }
    // Read-only: a finished thread may still hold the writer for a moment.
    let container = try ModelContainer(
      for: Trip.self, configurations: ModelConfiguration(url: scratch.store, allowsSave: false))
    #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 12)
    #expect(container.recoveryReport.replayedRecords == 12)
  }

  @Test("a failed sync fails every save waiting on it; no other context is shown their objects")
  func failedSharedSync() throws {
    let scratch = try SnapshotScratch()
    let io = CountingFileIO()
    let counter = io.counter
    let container = try ModelContainer(
      for: [Trip.self], configurations: [ModelConfiguration(url: scratch.store)], fileIO: io)
    // A class, not a local Mutex: threads share it by reference, not through a captured box.
    let failures = Locked<[JournalError.Code]>([])
    let group = DispatchGroup()
    /// Saves one trip from a context of a new thread, noting how the save failed.
    func save(_ name: String) {
      group.enter()
      Thread.detachNewThread {
        let context = ModelContext(container)
        context.insert(Trip(name: name))
        do {
          try context.save()
        } catch let error as JournalError {
          failures.withLock { $0.append(error.code) }
        } catch {
          Issue.record("not a JournalError: \(error)")
        }
        group.leave()
      }
    }
    let records = counter.records.load(ordering: .relaxed)
    // The first save's sync is held until three more saves wait behind it; then it fails.
    counter.holdsNextSync.store(true, ordering: .releasing)
    save("first")
    counter.entered.wait()
    for thread in 1...3 { save("waiting \(thread)") }
    while counter.records.load(ordering: .relaxed) < records + 4 { usleep(1_000) }
    counter.failsHeldSync.store(true, ordering: .releasing)
    counter.release.signal()
    group.wait()
    #expect(failures.withLock { $0.count } == 4)
    #expect(failures.withLock { $0.allSatisfy { $0 == .failed } })
    // None of the four versions became durable: no other context is shown them, and the
    // journal refuses later saves.
    let context = ModelContext(container)
    #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 0)
    context.insert(Trip(name: "later"))
    let later = try #require(throws: JournalError.self) { try context.save() }
    #expect(later.code == .failed)
  }

  @Test("saves of four contexts on four threads all survive, in at most a sync each")
  func concurrentSaves() throws {
    let scratch = try SnapshotScratch()
    let io = CountingFileIO()
    do {
      let container = try ModelContainer(
        for: [Trip.self], configurations: [ModelConfiguration(url: scratch.store)], fileIO: io)
      let before = io.counter.syncs.load(ordering: .relaxed)
      // Four threads (concurrentPerform would run only as many as there are cores).
      let group = DispatchGroup()
      for thread in 0..<4 {
        group.enter()
        Thread.detachNewThread {
          let context = ModelContext(container)
          for index in 0..<50 {
            context.insert(Trip(name: "t\(thread)-\(index)"))
            try! context.save()
          }
          group.leave()
        }
      }
      group.wait()
      let syncs = io.counter.syncs.load(ordering: .relaxed) - before
      #expect(syncs <= 200 && syncs > 0, "\(syncs) syncs for 200 saves")
    }
    let container = try ModelContainer(
      for: Trip.self, configurations: ModelConfiguration(url: scratch.store, allowsSave: false))
    #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 200)
    #expect(container.recoveryReport.replayedRecords == 200)
  }

  @Test(
    "a second writer gets locked; a read-only open sees the files as of opening and cannot save")
  func readOnly() throws {
    let scratch = try SnapshotScratch()
    let writer = try ModelContainer(
      for: Trip.self, configurations: ModelConfiguration(url: scratch.store))
    let context = ModelContext(writer)
    context.insert(Trip(name: "first"))
    try context.save()
    let locked = try #require(throws: SnapshotError.self) {
      _ = try ModelContainer(
        for: Trip.self, configurations: ModelConfiguration(url: scratch.store))
    }
    #expect(locked.code == .locked)
    let reader = try ModelContainer(
      for: Trip.self, configurations: ModelConfiguration(url: scratch.store, allowsSave: false))
    context.insert(Trip(name: "second"))
    try context.save()
    let readContext = ModelContext(reader)
    #expect(try readContext.fetch(FetchDescriptor<Trip>()).map(\.name) == ["first"])
    readContext.insert(Trip(name: "refused"))
    let refused = try #require(throws: JournalError.self) { try readContext.save() }
    #expect(refused.code == .readOnly)
    #expect(throws: JournalError.self) { try reader.snapshot() }
    let later = try ModelContainer(
      for: Trip.self, configurations: ModelConfiguration(url: scratch.store, allowsSave: false))
    #expect(try ModelContext(later).fetchCount(FetchDescriptor<Trip>()) == 2)
  }

  @Test("a journal past its threshold is checkpointed in the background; nothing is lost")
  func automaticCheckpoint() throws {
    let scratch = try SnapshotScratch()
    let journal = scratch.store.path + "-journal"
    do {
      let container = try ModelContainer(
        for: Trip.self,
        configurations: ModelConfiguration(url: scratch.store, checkpointThreshold: 4096))
      let context = ModelContext(container)
      for index in 0..<200 {
        context.insert(Trip(name: "trip \(index)"))
        try context.save()
      }
      try container.snapshot()
      #expect(try FileManager.default.attributesOfItem(atPath: journal)[.size] as? Int == 36)
    }
    let container = try ModelContainer(
      for: Trip.self, configurations: ModelConfiguration(url: scratch.store))
    #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 200)
    #expect(container.recoveryReport.replayedRecords == 0)
  }

  @Test("the journal's size stays bounded by the threshold while saves go on")
  func journalBounded() throws {
    let scratch = try SnapshotScratch()
    let journal = scratch.store.path + "-journal"
    let container = try ModelContainer(
      for: Trip.self,
      configurations: ModelConfiguration(url: scratch.store, checkpointThreshold: 8192))
    let context = ModelContext(container)
    var largest = 0
    for index in 0..<400 {
      context.insert(Trip(name: "trip \(index)"))
      try context.save()
      if index % 50 == 49 { Thread.sleep(forTimeInterval: 0.05) }
      largest = max(largest, container.store.journal?.size ?? 0)
    }
    let final = container.store.journal?.size ?? 0
    #expect(FileManager.default.fileExists(atPath: journal))
    #expect(final < 8192 * 4, "journal \(final) bytes, largest \(largest)")
    #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 400)
  }
}

/// The real file system; the first rename onto `slow` takes 200 ms.
private final class SlowRenameIO: ForwardingFileIO, @unchecked Sendable {
  // @unchecked Sendable: `delayed` is read and written under `lock` only.
  let base = SystemFileIO()
  let slow: String
  private let lock = NSLock()
  private var delayed = false

  init(slow: String) { self.slow = slow }

  func rename(_ from: String, _ to: String) throws {
    let first = lock.withLock {
      defer { delayed = delayed || to == slow }
      return to == slow && !delayed
    }
    if first { Thread.sleep(forTimeInterval: 0.2) }
    try base.rename(from, to)
  }
}

@Suite("Container journal: concurrent checkpoints")
struct ConcurrentCheckpointTests {
  @Test("a slow checkpoint is never overtaken: the snapshot ends at the newer version")
  func olderNeverReplacesNewer() throws {
    let scratch = try SnapshotScratch()
    // The container's first open writes the store's first snapshot; delay the next rename.
    let io = SlowRenameIO(slow: scratch.store.path)
    do {
      let container = try ModelContainer(
        for: [Trip.self], configurations: [ModelConfiguration(url: scratch.store)],
        fileIO: SystemFileIO())
      let context = ModelContext(container)
      context.insert(Trip(name: "first"))
      try context.save()
    }
    let container = try ModelContainer(
      for: [Trip.self], configurations: [ModelConfiguration(url: scratch.store)], fileIO: io)
    let context = ModelContext(container)
    context.insert(Trip(name: "second"))
    try context.save()
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      _ = try? container.snapshot()
      done.signal()
    }
    Thread.sleep(forTimeInterval: 0.05)
    context.insert(Trip(name: "third"))
    try context.save()
    let newest = container.store.version.number
    try container.snapshot()
    done.wait()
    let snapshot = try #require(try SnapshotFile(path: scratch.store.path).load())
    #expect(snapshot.number == newest)
  }
}
