import ModelGraph
import Synchronization
import Testing

/// Counts the times code entered a section another thread was still in.
final class OverlapProbe: Sendable {
  private let inside = Atomic(false)
  private let overlapCount = Atomic(0)

  var overlaps: Int { overlapCount.load(ordering: .acquiring) }

  func enter() {
    if inside.exchange(true, ordering: .acquiringAndReleasing) {
      overlapCount.add(1, ordering: .releasing)
    }
  }

  func leave() { inside.store(false, ordering: .releasing) }
}

@Suite("Model actors: a context on its own serial executor")
struct ModelActorTests {
  @Test("an actor inserts and saves; the main context sees the trips and their stops")
  func actorSaveIsVisible() async throws {
    let container = try makeInMemoryContainer(CCTrip.self, CCStop.self)
    let main = ModelContext(container)
    #expect(try main.fetchCount(FetchDescriptor<CCTrip>()) == 0)
    let importer = TripImporter(modelContainer: container)
    let ids = try await importer.insertTrips(named: ["Lisbon", "Porto"])

    let trips = try main.fetch(FetchDescriptor<CCTrip>(sortBy: [SortDescriptor(\.name)]))
    #expect(trips.map(\.name) == ["Lisbon", "Porto"])
    #expect(trips.map(\.persistentModelID) == ids)
    #expect(trips.map { $0.stops.map(\.name) } == [["Lisbon stop"], ["Porto stop"]])
    #expect(importer.modelContainer === container)
  }

  @Test("two actors saving concurrently, each with its own context, land every change")
  func concurrentActors() async throws {
    let container = try makeInMemoryContainer(CCTrip.self, CCStop.self)
    let main = ModelContext(container)
    let shared = CCTrip(name: "shared")
    main.insert(shared)
    try main.save()
    let sharedID = shared.persistentModelID
    let importers = [
      TripImporter(modelContainer: container), TripImporter(modelContainer: container),
    ]
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (owner, importer) in importers.enumerated() {
        group.addTask {
          for round in 0..<20 {
            _ = try await importer.insertTrips(
              named: (0..<3).map { "a\(owner)r\(round)t\($0)" }, owner: owner)
            // Edits of different attributes of one trip commute: both merge.
            if owner == 0 {
              try await importer.update(sharedID, note: "r\(round)")
            } else {
              try await importer.update(sharedID, visits: round)
            }
          }
        }
      }
      try await group.waitForAll()
    }
    let trips = try main.fetch(FetchDescriptor<CCTrip>())
    #expect(shared.note == "r19" && shared.visits == 19)
    #expect(Set(trips.map(\.name)).count == trips.count)
    #expect(try main.fetchCount(FetchDescriptor<CCTrip>()) == 1 + 2 * 20 * 3)
    #expect(try main.fetchCount(FetchDescriptor<CCStop>()) == 2 * 20 * 3)
    #expect(graphViolations(container).isEmpty)
  }

  @Test("identifiers passed between actors resolve, also in an actor made before the save")
  func identifiersBetweenActors() async throws {
    let container = try makeInMemoryContainer(CCTrip.self, CCStop.self)
    let reader = TripImporter(modelContainer: container)
    #expect(try await reader.tripCount() == 0)
    let writer = TripImporter(modelContainer: container)
    let ids = try await writer.insertTrips(named: ["Lisbon", "Porto"])

    #expect(await reader.describe(ids) == ["Lisbon: Lisbon stop", "Porto: Porto stop"])
    try await reader.update(ids[1], note: "by the reader")
    let main = ModelContext(container)
    let porto = try #require(main.model(for: ids[1]) as? CCTrip)
    #expect(porto.note == "by the reader")

    let other = try makeInMemoryContainer(CCTrip.self, CCStop.self)
    let stranger = TripImporter(modelContainer: other)
    #expect(await stranger.describe(ids) == [nil, nil])
  }

  @Test("an actor's methods run on its model executor's queue, not the caller's")
  func runsOnExecutor() async throws {
    let container = try makeInMemoryContainer(CCTrip.self, CCStop.self)
    let importer = TripImporter(modelContainer: container)
    let executor = try #require(importer.modelExecutor as? DefaultSerialModelExecutor)
    #expect(executor.isIsolatingCurrentContext() == false)
    #expect(await importer.isOnModelExecutor())
    let other = TripImporter(modelContainer: container)
    #expect(await other.isOnModelExecutor())
    await other.assertNotOn(executor)
  }

  @Test("an actor declared as SwiftData's macro expands works unchanged")
  func macroStyleActor() async throws {
    let container = try makeInMemoryContainer(CCTrip.self, CCStop.self)
    let importer = MacroStyleImporter(modelContainer: container)
    #expect(try await importer.insertTrip(named: "Lisbon"))
    #expect(importer.modelContainer === container)
    let main = ModelContext(container)
    #expect(try main.fetch(FetchDescriptor<CCTrip>()).map(\.name) == ["Lisbon"])
  }

  @Test("a worker runs the closures it is given on its executor, one at a time")
  func workerIsSerial() async throws {
    let container = try makeInMemoryContainer(CCTrip.self, CCStop.self)
    let worker = ModelWorker(modelContainer: container)
    let executor = try #require(worker.modelExecutor as? DefaultSerialModelExecutor)
    let probe = OverlapProbe()
    await withTaskGroup(of: Bool.self) { group in
      for index in 0..<40 {
        group.addTask {
          await worker.perform { context in
            probe.enter()
            context.insert(CCTrip(name: "t\(index)"))
            probe.leave()
            return executor.isIsolatingCurrentContext() == true
          }
        }
      }
      for await onExecutor in group { #expect(onExecutor) }
    }
    #expect(probe.overlaps == 0)
    let pending = await worker.perform { $0.insertedModelsArray.count }
    #expect(pending == 40)
  }

  @Test("a conflict thrown inside an actor is retried: roll back, refetch, redo, save")
  func conflictRetry() async throws {
    let container = try makeInMemoryContainer(CCTrip.self, CCStop.self)
    let importer = TripImporter(modelContainer: container)
    let id = try #require(try await importer.insertTrips(named: ["Lisbon"]).first)

    let (attempts, conflicts) = try await importer.rename(id, to: "Porto") { attempt in
      // Before the first save, another context saves a different name for the same trip.
      guard attempt == 1 else { return }
      let other = ModelContext(container)
      let trip = try #require(other.model(for: id) as? CCTrip)
      trip.name = "Faro"
      try other.save()
    }
    #expect(attempts == 2)
    #expect(conflicts.map(\.kind) == [.attribute])
    #expect(conflicts.first?.property == "name")
    #expect(conflicts.first?.theirs == .string("Faro"))
    let main = ModelContext(container)
    #expect(try main.fetch(FetchDescriptor<CCTrip>()).map(\.name) == ["Porto"])
  }
}
