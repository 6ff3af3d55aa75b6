import Dispatch
import Foundation
import Synchronization
import Testing

@testable import ModelGraphCore

/// A ``SimFS`` whose data syncs, once ``hold()`` is called, stop at their start until the test
/// lets them go; it counts the syncs made meanwhile.
private final class HeldSyncIO: ForwardingFileIO, @unchecked Sendable {
  // @unchecked Sendable: `holding` and `syncs` are reached only under `lock`.
  let base = SimFS()
  private let lock = NSLock()
  private var holding = false
  private var syncs = 0
  let reached = DispatchSemaphore(value: 0)
  let release = DispatchSemaphore(value: 0)

  /// Makes the next data sync wait for ``release``, and counts syncs from now on.
  func hold() { lock.withLock { (holding, syncs) = (true, 0) } }

  /// The data syncs made since ``hold()``.
  var syncCount: Int { lock.withLock { syncs } }

  func syncData(_ descriptor: Int32) throws {
    let wait = lock.withLock {
      syncs += 1
      defer { holding = false }
      return holding
    }
    if wait {
      reached.signal()
      release.wait()
    }
    try base.syncData(descriptor)
  }

}

/// What a save on another thread ended with.
private final class Outcome: Sendable {
  let done = DispatchSemaphore(value: 0)
  let result = Mutex<Result<Void, any Error>?>(nil)

  func run(_ body: @escaping @Sendable () throws -> Void) {
    Thread.detachNewThread {
      let ended = Result { try body() }
      self.result.withLock { $0 = ended }
      self.done.signal()
    }
  }

  var finished: Bool { result.withLock { $0 != nil } }
}

@Suite("Journal: a save is shown to others only once its record is durable")
struct JournalVisibilityTests {
  private func open() throws -> (store: Store, journal: Journal, io: HeldSyncIO) {
    let io = HeldSyncIO()
    let opened = try JournalFixture.open(StoreFiles(path: "/sim/store.mgs", io: io))
    return (opened.store, opened.journal, io)
  }

  /// The trips a session starting now reads.
  private func tripNames(_ store: Store) -> Set<String> {
    let session = Session(store: store)
    let table = session.table(SnapshotFixture.trip)
    var names: Set<String> = []
    table.forEachLiveRow { names.insert(table.column(0, as: String.self)[$0]) }
    return names
  }

  /// Starts a save of a new trip (`trip 1`) on another thread and returns once its record is
  /// written and its sync is held.
  private func startHeldSave(store: Store, io: HeldSyncIO) -> Outcome {
    io.hold()
    let saving = Outcome()
    saving.run {
      let session = Session(store: store)
      JournalFixture.insertTrip(1, session: session)
      try session.save()
    }
    io.reached.wait()
    return saving
  }

  /// Waits (without a deadline that could flake) until `condition` holds.
  private func eventually(_ condition: () -> Bool) {
    while !condition() { usleep(1_000) }
  }

  @Test("while a save's sync runs, other sessions and subscribers do not see it; then they do")
  func hiddenUntilSynced() throws {
    let (store, journal, io) = try open()
    try JournalFixture.save(step: 0, store: store)
    let seen = Mutex<[UInt64]>([])
    let subscription = store.subscribe { change in seen.withLock { $0.append(change.version) } }
    defer { store.unsubscribe(subscription) }
    let before = store.version.number

    let saving = startHeldSave(store: store, io: io)
    // The record is written and its sync has started; the version is committed, not shown.
    #expect(store.latestCommitted.number == before + 1)
    #expect(store.version.number == before)
    #expect(tripNames(store) == ["trip 0"])
    #expect(seen.withLock { $0 }.isEmpty)
    #expect(!saving.finished)

    io.release.signal()
    saving.done.wait()
    try saving.result.withLock { $0 }?.get()
    #expect(store.version.number == before + 1)
    #expect(tripNames(store) == ["trip 0", "trip 1"])
    #expect(seen.withLock { $0 } == [before + 1])
    journal.close()
  }

  @Test("saves of other sessions during a held sync build on it and share the next sync")
  func groupCommitWhileHidden() throws {
    let (store, journal, io) = try open()
    try JournalFixture.save(step: 0, store: store)
    let seen = Mutex<[UInt64]>([])
    let subscription = store.subscribe { change in seen.withLock { $0.append(change.version) } }
    defer { store.unsubscribe(subscription) }
    let before = store.version.number

    let first = startHeldSave(store: store, io: io)
    // Two more saves, from sessions that started before the first was shown, append their
    // records while its sync is held.
    let sessions = [Session(store: store), Session(store: store)]
    let others = [Outcome(), Outcome()]
    for (index, (session, outcome)) in zip(sessions, others).enumerated() {
      let box = UncheckedBox(session)
      outcome.run {
        JournalFixture.insertTrip(2 + index, session: box.value)
        try box.value.save()
      }
    }
    eventually { store.latestCommitted.number == before + 3 }
    #expect(store.version.number == before)
    #expect(tripNames(store) == ["trip 0"])
    #expect(seen.withLock { $0 }.isEmpty)

    io.release.signal()
    for outcome in [first] + others {
      outcome.done.wait()
      try outcome.result.withLock { $0 }?.get()
    }
    // The held sync covered the first record; one more covered both others.
    #expect(io.syncCount == 2)
    #expect(store.version.number == before + 3)
    #expect(tripNames(store) == ["trip 0", "trip 1", "trip 2", "trip 3"])
    #expect(seen.withLock { $0 } == [before + 1, before + 2, before + 3])
    journal.close()
  }

  @Test("an index a reader builds while a save waits for its sync reaches that save's version")
  func indexBuiltWhileHiddenIsCarried() throws {
    let (store, journal, io) = try open()
    try JournalFixture.save(step: 0, store: store)
    let trip = SnapshotFixture.trip
    let reader = Session(store: store)

    let saving = startHeldSave(store: store, io: io)
    // The reader builds the index for the shown version, after the save committed over it.
    let definition = IndexDefinition(.hash, on: "name")
    let tables = reader.base.tables
    let resolver = IndexResolver(
      tables: tables, committedTables: tables, hasPendingChanges: false,
      memo: reader.indexMemo)
    let view = try #require(resolver.view(definition, entity: store.catalog.entities[trip]))
    #expect(view.rows(equalTo: [.string("trip 0")])?.count == 1)
    #expect(view.rows(equalTo: [.string("trip 1")])?.count ?? 0 == 0)
    let committed = store.latestCommitted.tables[trip]
    #expect(committed !== tables[trip])
    let carried = try #require(
      committed.indexShelf?.built(definition), "the committed version has no index of its own")
    #expect(carried.view.rows(equalTo: [.string("trip 1")])?.count == 1)
    #expect(carried.view.count == 2)

    io.release.signal()
    saving.done.wait()
    try saving.result.withLock { $0 }?.get()
    #expect(store.version.tables[trip] === committed)
    journal.close()
  }

  @Test("a conflict with a save not yet durable is reported only once that save is")
  func conflictWaitsForDurability() throws {
    let (store, journal, io) = try open()
    try JournalFixture.save(step: 0, store: store)
    let trip = SnapshotFixture.trip
    var found = -1
    store.version.tables[trip].forEachLiveRow { found = $0 }
    let row = found
    let late = Session(store: store)
    late.table(trip).column(1, as: Int64.self)[row] = 7
    late.noteAttributeWrite(entity: trip, row: row, slot: 1)

    io.hold()
    let first = Outcome()
    first.run {
      let session = Session(store: store)
      session.table(trip).column(1, as: Int64.self)[row] = 5
      session.noteAttributeWrite(entity: trip, row: row, slot: 1)
      try session.save()
    }
    io.reached.wait()
    let conflicting = Outcome()
    let box = UncheckedBox(late)
    conflicting.run { try box.value.save() }
    usleep(50_000)
    #expect(!conflicting.finished, "the conflict waits for the first save's sync")

    io.release.signal()
    first.done.wait()
    try first.result.withLock { $0 }?.get()
    conflicting.done.wait()
    let refused = conflicting.result.withLock { $0 }
    #expect(throws: ConflictError.self) { try refused?.get() }
    #expect(store.version.tables[trip].column(1, as: Int64.self)[row] == 5)
    journal.close()
  }
}

/// Hands a session made on the test's thread to the thread that saves it (only that thread
/// uses it afterwards).
private struct UncheckedBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
