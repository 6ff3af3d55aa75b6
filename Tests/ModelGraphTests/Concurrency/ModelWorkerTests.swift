import ModelGraph
import Testing

@Suite("Model workers and background tasks")
struct ModelWorkerTests {
  @Test("a worker keeps its context between closures; identifiers cross, objects do not")
  func workerKeepsContext() async throws {
    let container = try makeInMemoryContainer(CCTrip.self, CCStop.self)
    let worker = ModelWorker(modelContainer: container)
    await worker.perform { context in context.insert(CCTrip(name: "Lisbon")) }
    let id = try await worker.perform { context in
      let trip = try #require(context.insertedModelsArray.first as? CCTrip)
      #expect(trip.name == "Lisbon")
      try context.save()
      return trip.persistentModelID
    }
    let main = ModelContext(container)
    #expect((main.model(for: id) as? CCTrip)?.name == "Lisbon")
    #expect(worker.modelContainer === container)
  }

  @Test("a worker's closure that throws leaves its changes unsaved until a rollback")
  func workerThrows() async throws {
    let container = try makeInMemoryContainer(CCTrip.self, CCStop.self)
    let worker = ModelWorker(modelContainer: container)
    await #expect(throws: MissingTrip.self) {
      try await worker.perform { context in
        context.insert(CCTrip(name: "Lisbon"))
        throw MissingTrip(id: PersistentIdentifier(entityName: "CCTrip", row: 9, generation: 1))
      }
    }
    #expect(await worker.perform { $0.hasChanges })
    await worker.perform { $0.rollback() }
    #expect(await worker.perform { $0.hasChanges } == false)
  }

  @Test("performBackgroundTask saves on a context of its own and returns the result")
  func backgroundTask() async throws {
    let container = try makeInMemoryContainer(CCTrip.self, CCStop.self)
    let names = ["Lisbon", "Porto", "Faro"]
    let count = try await container.performBackgroundTask { context in
      for name in names { context.insert(CCTrip(name: name)) }
      try context.save()
      return try context.fetchCount(FetchDescriptor<CCTrip>())
    }
    #expect(count == 3)
    let main = ModelContext(container)
    #expect(try main.fetchCount(FetchDescriptor<CCTrip>()) == 3)
    let fresh = await container.performBackgroundTask { $0.hasChanges }
    #expect(fresh == false)
  }
}
