import Foundation
import ModelGraph
import Testing

/// A class unrelated to `Trip`, for saves a trip query must ignore.
class ObservedNote: PersistentModel {
  @Attribute var text: String

  convenience init(text: String) {
    self.init()
    self.text = text
  }
}

/// Applies `update`'s difference to `previous`, as a consumer of the differences would.
func applying(_ update: LiveQueryUpdate, to previous: [PersistentIdentifier])
  -> [PersistentIdentifier]
{
  var result: [PersistentIdentifier?] = previous
  let moved = Set(update.moves.map(\.from))
  for index in Set(update.removedIndexes).union(moved) { result[index] = nil }
  var kept = result.compactMap { $0 }
  var placed: [(Int, PersistentIdentifier)] = update.insertedIndexes.map {
    ($0, update.identifiers[$0])
  }
  placed += update.moves.map { ($0.to, previous[$0.from]) }
  for (index, identifier) in placed.sorted(by: { $0.0 < $1.0 }) {
    kept.insert(identifier, at: index)
  }
  return kept
}

@Suite("Live queries")
struct LiveQueryTests {
  let container: ModelContainer
  let context: ModelContext
  let descriptor = FetchDescriptor<Trip>(
    predicate: #Predicate { $0.name != "hidden" }, sortBy: [SortDescriptor(\.name)])

  init() throws {
    container = try makeInMemoryContainer(Trip.self, ObservedNote.self)
    context = ModelContext(container)
  }

  @Test("first the results, then each save's difference: inserted, moved, removed")
  func updatesFollowSaves() async throws {
    let oslo = Trip(name: "Oslo")
    context.insert(oslo)
    try context.save()
    var updates = try container.observe(descriptor).makeAsyncIterator()
    let first = try #require(try await updates.next())
    #expect(first.identifiers == [oslo.persistentModelID])
    #expect(first.insertedIndexes == [0])

    let bergen = Trip(name: "Bergen")
    context.insert(bergen)
    try context.save()
    let second = try #require(try await updates.next())
    #expect(second.identifiers == [bergen.persistentModelID, oslo.persistentModelID])
    #expect(second.insertedIndexes == [0] && second.removedIndexes.isEmpty)
    #expect(second.version == container.store.version.number)

    bergen.name = "Tromsø"
    try context.save()
    let third = try #require(try await updates.next())
    #expect(third.identifiers == [oslo.persistentModelID, bergen.persistentModelID])
    #expect(!third.moves.isEmpty && third.insertedIndexes.isEmpty && third.removedIndexes.isEmpty)
    #expect(applying(third, to: second.identifiers) == third.identifiers)

    oslo.name = "hidden"
    try context.save()
    let fourth = try #require(try await updates.next())
    #expect(fourth.identifiers == [bergen.persistentModelID])
    #expect(fourth.removedIndexes == [0] && fourth.insertedIndexes.isEmpty)
  }

  @Test("saves to an unrelated class or to an attribute the query does not read do not affect it")
  func unrelatedSavesDoNotAffect() async throws {
    let query = try LiveQuery(descriptor, in: container)
    let changes = container.changes()
    let trip = Trip(name: "Oslo")
    context.insert(trip)
    try context.save()
    context.insert(ObservedNote(text: "unrelated"))
    try context.save()
    trip.auditCode = "not read"
    trip.startDate = Date(timeIntervalSince1970: 0)
    try context.save()
    trip.name = "Bergen"
    try context.save()
    context.delete(trip)
    try context.save()
    let seen = await take(5, from: changes)
    #expect(seen.map(query.isAffected(by:)) == [true, false, false, true, true])

    let byDate = try LiveQuery(
      FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)]), in: container)
    #expect(seen.map(byDate.isAffected(by:)) == [true, false, true, false, true])
  }

  @Test("after unrelated saves, the next update is the next save that changed the results")
  func unrelatedSavesDeliverNothing() async throws {
    var updates = try container.observe(descriptor).makeAsyncIterator()
    let first = try #require(try await updates.next())
    #expect(first.identifiers.isEmpty)
    context.insert(ObservedNote(text: "unrelated"))
    try context.save()
    let hidden = Trip(name: "hidden")
    context.insert(hidden)
    try context.save()
    context.insert(Trip(name: "Oslo"))
    try context.save()
    let next = try #require(try await updates.next())
    #expect(next.version == container.store.version.number)
    #expect(next.identifiers.count == 1)
  }

  @Test("a burst of saves from another thread ends in the final results; every difference applies")
  func burstsCoalesceConsistently() async throws {
    var updates = try container.observe(descriptor).makeAsyncIterator()
    var current = try #require(try await updates.next()).identifiers
    let container = container
    let writer = Task.detached {
      let context = ModelContext(container)
      for index in 0..<50 {
        context.insert(Trip(name: String(format: "%02d", (index * 37) % 50)))
        try context.save()
      }
    }
    try await writer.value
    var received = 0
    while current.count < 50, let update = try await updates.next() {
      #expect(applying(update, to: current) == update.identifiers)
      current = update.identifiers
      received += 1
    }
    #expect(current.count == 50 && received >= 1)
    let names = try context.fetch(descriptor).map(\.persistentModelID)
    #expect(current == names)
  }
}
