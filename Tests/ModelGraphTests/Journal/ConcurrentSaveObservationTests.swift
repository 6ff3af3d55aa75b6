import Foundation
import ModelGraph
import ModelGraphCore
import Observation
import Synchronization
import Testing

@Suite("Concurrent journal saves: a save rebased onto a save still syncing")
struct ConcurrentSaveObservationTests {
  /// What the rebased context's trackings saw.
  private final class Seen: Sendable {
    let renamedFired = Atomic<Int>(0)
    let untouchedFired = Atomic<Int>(0)
    let renamedName = Mutex<String?>(nil)
    let failure = Mutex<String?>(nil)
  }

  @Test(
    "fires only the properties the other save changed, after both are durable; both survive")
  func rebasedSaveFiresChangedProperties() throws {
    let scratch = try SnapshotScratch()
    let io = CountingFileIO()
    let counter = io.counter
    do {
      let container = try ModelContainer(
        for: [Trip.self], configurations: [ModelConfiguration(url: scratch.store)], fileIO: io)
      let setup = ModelContext(container)
      setup.insert(Trip(name: "renamed"))
      setup.insert(Trip(name: "untouched"))
      try setup.save()

      let group = DispatchGroup()
      let records = counter.records.load(ordering: .relaxed)
      // The renaming save's sync is held: its version is committed, not shown.
      counter.holdsNextSync.store(true, ordering: .releasing)
      group.enter()
      Thread.detachNewThread {
        let context = ModelContext(container)
        let trip = try! context.fetch(FetchDescriptor<Trip>()).first { $0.name == "renamed" }!
        trip.name = "renamed twice"
        try! context.save()
        group.leave()
      }
      counter.entered.wait()

      // Another context, on the version before the rename, saves an unrelated insert: it
      // rebases onto the rename while the rename's record is still syncing.
      let seen = Seen()
      group.enter()
      Thread.detachNewThread {
        defer { group.leave() }
        let context = ModelContext(container)
        do {
          let trips = try context.fetch(FetchDescriptor<Trip>())
          let renamed = trips.first { $0.name == "renamed" }!
          let untouched = trips.first { $0.name == "untouched" }!
          withObservationTracking {
            _ = renamed.name
          } onChange: {
            seen.renamedFired.add(1, ordering: .relaxed)
          }
          withObservationTracking {
            _ = untouched.name
          } onChange: {
            seen.untouchedFired.add(1, ordering: .relaxed)
          }
          context.insert(Trip(name: "inserted"))
          try context.save()
          seen.renamedName.withLock { $0 = renamed.name }
        } catch {
          seen.failure.withLock { $0 = "\(error)" }
        }
      }
      while counter.records.load(ordering: .relaxed) < records + 2 { usleep(1_000) }
      counter.release.signal()
      group.wait()

      #expect(seen.failure.withLock { $0 } == nil)
      #expect(seen.renamedName.withLock { $0 } == "renamed twice")
      #expect(seen.renamedFired.load(ordering: .relaxed) == 1)
      // The history held the rename once it was durable: nothing else fires.
      #expect(seen.untouchedFired.load(ordering: .relaxed) == 0)
    }
    let reopened = try ModelContainer(
      for: Trip.self, configurations: ModelConfiguration(url: scratch.store, allowsSave: false))
    let names = try ModelContext(reopened).fetch(FetchDescriptor<Trip>()).map(\.name)
    #expect(Set(names) == ["renamed twice", "untouched", "inserted"])
  }
}
