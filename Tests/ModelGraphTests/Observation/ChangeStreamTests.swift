import Dispatch
import ModelGraph
import ModelGraphCore
import Testing

/// Takes the next `count` changes from `stream`.
func take(_ count: Int, from stream: AsyncStream<CommittedChange>) async -> [CommittedChange] {
  var iterator = stream.makeAsyncIterator()
  var changes: [CommittedChange] = []
  while changes.count < count, let change = await iterator.next() { changes.append(change) }
  return changes
}

@Suite("Committed change streams")
struct ChangeStreamTests {
  @Test("inserts, updates with attribute names, deletes with preserved values, author, version")
  func everyKindOfChange() async throws {
    let container = try makeInMemoryContainer(Trip.self)
    let stream = container.changes()
    let context = ModelContext(container)
    context.author = "importer"
    let trip = Trip(name: "Oslo")
    trip.auditCode = "A-1"
    let other = Trip(name: "Rome")
    context.insert(trip)
    context.insert(other)
    try context.save()
    trip.name = "Bergen"
    try context.save()
    context.author = nil
    context.delete(trip)
    try context.save()
    let start = container.store.version.number - 3
    let changes = await take(3, from: stream)
    #expect(changes.map(\.version) == [start + 1, start + 2, start + 3])
    #expect(Set(changes[0].inserted) == [trip.persistentModelID, other.persistentModelID])
    #expect(changes[0].author == "importer")
    #expect(changes[0].entities.map(\.name) == ["Trip"])
    #expect(changes[0].entities.first?.insertedOrDeleted == true)
    #expect(changes[1].inserted.isEmpty)
    #expect(changes[1].updated.map(\.identifier) == [trip.persistentModelID])
    #expect(changes[1].updated.first?.attributes == ["name"])
    #expect(changes[1].entities.first?.attributes == ["name"])
    #expect(changes[1].entities.first?.insertedOrDeleted == false)
    #expect(changes[2].author == nil)
    #expect(changes[2].deleted.map(\.identifier) == [trip.persistentModelID])
    #expect(changes[2].deleted.first?.preservedValues == ["auditCode": .string("A-1")])
  }

  @Test("saves of sessions outside the typed API (the runner's) reach the container's stream")
  func runnerSessionsAreSeen() async throws {
    let container = try makeInMemoryContainer(Trip.self)
    let stream = container.changes()
    let session = Session(store: container.store)
    session.author = "runner"
    let key = session.insert(entity: 0)
    try session.save()
    let change = try #require(await take(1, from: stream).first)
    #expect(change.author == "runner")
    #expect(
      change.inserted == [
        PersistentIdentifier(entityName: "Trip", row: key.row, generation: key.generation)
      ])
    #expect(change.version == container.store.version.number)
  }

  @Test("every subscriber sees every save of 4 concurrent contexts, in commit order")
  func orderingUnderConcurrentSaves() async throws {
    let container = try makeInMemoryContainer(Trip.self)
    let first = container.changes(bufferingNewest: nil)
    let second = container.store.changes(bufferingNewest: nil)
    let start = container.store.version.number
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
      let context = ModelContext(container)
      context.author = "worker \(worker)"
      for index in 0..<25 {
        context.insert(Trip(name: "\(worker)-\(index)"))
        try! context.save()
      }
    }
    let seenByFirst = await take(100, from: first)
    let seenBySecond = await take(100, from: second)
    #expect(seenByFirst.map(\.version) == Array(start + 1...start + 100))
    #expect(seenBySecond.map(\.version) == seenByFirst.map(\.version))
    #expect(seenBySecond.map(\.inserted) == seenByFirst.map(\.inserted))
    #expect(Set(seenByFirst.flatMap(\.inserted)).count == 100)
    for worker in 0..<4 {
      #expect(seenByFirst.filter { $0.author == "worker \(worker)" }.count == 25)
    }
  }

  @Test("a full buffer drops the oldest changes; the gap shows in the versions; saves go on")
  func overflowDropsOldest() async throws {
    let container = try makeInMemoryContainer(Trip.self)
    let stream = container.changes(bufferingNewest: 2)
    let context = ModelContext(container)
    for index in 0..<5 {
      context.insert(Trip(name: "\(index)"))
      try context.save()
    }
    let last = container.store.version.number
    let kept = await take(2, from: stream)
    #expect(kept.map(\.version) == [last - 1, last])
  }

  @Test("a save that changes nothing publishes no change")
  func emptySavePublishesNothing() async throws {
    let container = try makeInMemoryContainer(Trip.self)
    let stream = container.changes()
    let context = ModelContext(container)
    try context.save()
    context.insert(Trip(name: "Oslo"))
    try context.save()
    let change = try #require(await take(1, from: stream).first)
    #expect(change.inserted.count == 1)
    #expect(change.version == container.store.version.number)
  }
}
