import Dispatch
import Foundation
import ModelGraph
import ModelGraphCore
import Synchronization
import Testing

/// Holds a snapshot write at its fsync until the test opens the gate.
final class SnapshotGate: Sendable {
  private let armed = Atomic(false)
  private let waiting = Atomic(false)
  private let inTask = Atomic(false)
  private let opened = DispatchSemaphore(value: 0)

  /// Makes the next fsync wait.
  func arm() { armed.store(true, ordering: .releasing) }

  /// Whether a write is held at its fsync now.
  var isHolding: Bool { waiting.load(ordering: .acquiring) }

  /// Whether the held write ran inside a task (on the caller's thread or the cooperative pool)
  /// rather than on a queue of its own.
  var heldInsideTask: Bool { inTask.load(ordering: .acquiring) }

  /// Lets the held write go on.
  func open() { opened.signal() }

  /// The longest wait for the other side. Swift Testing runs synchronous tests on the
  /// cooperative pool (two threads on a 2-core machine), so other long tests can hold every
  /// thread for a minute or more before this test's tasks run again (a 60 s bound failed once
  /// so); a passing run is no slower, since the test opens the gate itself.
  static var patience: Duration { .seconds(600) }

  /// Called by the file operations before an fsync; waits (at most ``patience``) when armed.
  func pass() {
    guard armed.exchange(false, ordering: .acquiringAndReleasing) else { return }
    inTask.store(withUnsafeCurrentTask { $0 != nil }, ordering: .releasing)
    waiting.store(true, ordering: .releasing)
    _ = opened.wait(timeout: .now() + .seconds(Int(Self.patience.components.seconds)))
    waiting.store(false, ordering: .releasing)
  }

  /// Suspends until a write is held, or ``patience`` passed.
  func waitUntilHolding() async throws {
    let deadline = ContinuousClock.now + Self.patience
    while !isHolding, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
  }
}

/// The system's files, with fsyncs of files held by a gate.
struct GatedFileIO: ForwardingFileIO {
  let base = SystemFileIO()
  let gate: SnapshotGate

  func sync(_ descriptor: Int32) throws {
    gate.pass()
    try base.sync(descriptor)
  }
}

@Suite("Asynchronous snapshots")
struct AsyncSnapshotTests {
  @Test("try await snapshot() writes a file that reopens with the data")
  func asyncSnapshotRoundTrip() async throws {
    let scratch = try SnapshotScratch()
    var ids: [PersistentIdentifier] = []
    do {
      let container = try ModelContainer(
        for: CCTrip.self, configurations: ModelConfiguration(url: scratch.store))
      ids = try await TripImporter(modelContainer: container).insertTrips(
        named: ["Lisbon", "Porto"])
      let bytes = try await container.snapshot()
      #expect(bytes > 0)
    }
    let container = try ModelContainer(
      for: CCTrip.self, configurations: ModelConfiguration(url: scratch.store))
    let context = ModelContext(container)
    let trips = try context.fetch(FetchDescriptor<CCTrip>(sortBy: [SortDescriptor(\.name)]))
    #expect(trips.map(\.name) == ["Lisbon", "Porto"])
    #expect(trips.map(\.persistentModelID) == ids)
    #expect(trips.flatMap { $0.stops.map(\.name) } == ["Lisbon stop", "Porto stop"])
  }

  @Test("while an actor awaits its snapshot, the write holds neither the actor nor the caller")
  func snapshotDoesNotBlockTheActor() async throws {
    let scratch = try SnapshotScratch()
    let gate = SnapshotGate()
    let container = try ModelContainer(
      for: [CCTrip.self], configurations: [ModelConfiguration(url: scratch.store)],
      fileIO: GatedFileIO(gate: gate))
    let importer = TripImporter(modelContainer: container)
    _ = try await importer.insertTrips(named: ["Lisbon", "Porto"])

    gate.arm()
    let write = Task { try await importer.snapshot() }
    try await gate.waitUntilHolding()
    #expect(gate.isHolding)
    #expect(!gate.heldInsideTask)
    // The actor runs another method while its snapshot is being written.
    _ = try await importer.insertTrips(named: ["Faro"])
    #expect(try await importer.tripCount() == 3)
    #expect(gate.isHolding)
    gate.open()
    #expect(try await write.value > 0)

    // The file holds the two trips saved before the snapshot was asked for, or all three.
    let stored = try #require(try SnapshotFile(path: scratch.store.path).load())
    let entity = try #require(stored.catalog.entity(named: "CCTrip"))
    #expect([2, 3].contains(stored.tables[entity.index].liveCount))
  }

  @Test("an in-memory container refuses an asynchronous snapshot with a SnapshotError")
  func inMemoryRefused() async throws {
    let container = try makeInMemoryContainer(CCTrip.self, CCStop.self)
    await #expect(throws: SnapshotError.self) { try await container.snapshot() }
  }
}
