import Foundation
import ModelGraph
import Testing

@Suite("Batched fetches: fetch(_:batchSize:), fetchIdentifiers(_:batchSize:), enumerate")
struct BatchedFetchTests {
  /// 50 trips of three classes with distinct names and dates, saved, in a fresh context.
  private func makeContext() throws -> ModelContext {
    let container = try makeInMemoryContainer(Trip.self)
    let context = ModelContext(container)
    for index in 0..<50 {
      let name = "trip-\(String(format: "%02d", (index * 37) % 50))"
      let trip: Trip =
        switch index % 3 {
        case 0: Trip(name: name)
        case 1: BusinessTrip(name: name, company: "C\(index % 4)")
        default: PersonalTrip(name: name, reason: .family)
        }
      trip.startDate = Date(timeIntervalSince1970: Double(index * 86_400))
      context.insert(trip)
    }
    try context.save()
    return ModelContext(container)
  }

  private static let descriptors: [FetchDescriptor<Trip>] = {
    var windowed = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name, order: .reverse)])
    windowed.fetchOffset = 3
    windowed.fetchLimit = 30
    var inMemory = FetchDescriptor<Trip>(
      sortBy: [SortDescriptor(\.name, comparator: .lexical)])
    inMemory.fetchLimit = 20
    let late = Date(timeIntervalSince1970: 20 * 86_400)
    return [
      FetchDescriptor<Trip>(),
      FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)]),
      windowed,
      inMemory,
      FetchDescriptor<Trip>(predicate: #Predicate { $0.startDate >= late && $0 is BusinessTrip }),
    ]
  }()

  @Test(
    "results and identifiers equal a plain fetch's, for every batch size",
    arguments: descriptors.indices, [1, 7, 50, 1_000])
  func sameResults(descriptorIndex: Int, batchSize: Int) throws {
    let context = try makeContext()
    let descriptor = Self.descriptors[descriptorIndex]
    let plain = try context.fetch(descriptor).map(\.persistentModelID)
    let batched = try context.fetch(descriptor, batchSize: batchSize)
    #expect(batched.count == plain.count)
    #expect(batched.map(\.persistentModelID) == plain)
    #expect(Array(try context.fetchIdentifiers(descriptor, batchSize: batchSize)) == plain)
    var enumerated: [PersistentIdentifier] = []
    try context.enumerate(descriptor, batchSize: batchSize) {
      enumerated.append($0.persistentModelID)
    }
    #expect(enumerated == plain)
    // Random access, backwards, returns the same objects.
    if let last = plain.last {
      #expect(batched[batched.count - 1].persistentModelID == last)
      #expect(batched[0].persistentModelID == plain[0])
    }
  }

  @Test("only the current batch of objects is alive while the collection is read")
  func batchesAreReleased() throws {
    let context = try makeContext()
    let results = try context.fetch(
      FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]), batchSize: 10)
    var seen: [Weak] = []
    for position in results.indices {
      seen.append(Weak(results[position]))
      let alive = seen.filter { $0.object != nil }.count
      #expect(alive == position % 10 + 1, "at \(position)")
    }
    #expect(seen.count == 50)
  }

  @Test("enumerate keeps only a batch of objects alive")
  func enumerateReleases() throws {
    let context = try makeContext()
    var seen: [Weak] = []
    var mostAlive = 0
    try context.enumerate(FetchDescriptor<Trip>(), batchSize: 8) { trip in
      seen.append(Weak(trip))
      mostAlive = max(mostAlive, seen.filter { $0.object != nil }.count)
    }
    #expect(seen.count == 50)
    #expect(mostAlive == 8)
  }

  @Test("a block that leaves unsaved changes is refused unless escaping mutations are allowed")
  func escapingMutations() throws {
    let context = try makeContext()
    var calls = 0
    let error = try #require(throws: ModelError.self) {
      try context.enumerate(FetchDescriptor<Trip>(), batchSize: 5) { trip in
        calls += 1
        trip.name += "!"
      }
    }
    #expect(error.code == .escapingMutations)
    #expect(calls == 1)
    context.rollback()
    try context.enumerate(FetchDescriptor<Trip>(), batchSize: 5) { trip in
      trip.name += "!"
      try context.save()
    }
    try context.enumerate(FetchDescriptor<Trip>(), batchSize: 5, allowEscapingMutations: true) {
      $0.name += "?"
    }
    try context.save()
    let names = try context.fetch(FetchDescriptor<Trip>()).map(\.name)
    #expect(names.count == 50 && names.allSatisfy { $0.hasSuffix("!?") })
  }

  @Test("a batch size below 1 is refused with a clear error", arguments: [0, -3])
  func badBatchSize(batchSize: Int) throws {
    let context = try makeContext()
    let error = try #require(throws: ModelError.self) {
      _ = try context.fetch(FetchDescriptor<Trip>(), batchSize: batchSize)
    }
    #expect(error.code == .invalidDescriptor)
    #expect(error.message.contains("batchSize is \(batchSize)"))
    #expect(throws: ModelError.self) {
      _ = try context.fetchIdentifiers(FetchDescriptor<Trip>(), batchSize: batchSize)
    }
    #expect(throws: ModelError.self) {
      try context.enumerate(FetchDescriptor<Trip>(), batchSize: batchSize) { _ in }
    }
  }

  @Test("an object deleted and saved after the fetch reads as deleted; enumerate skips it")
  func deletedAfterFetch() throws {
    let context = try makeContext()
    let descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
    let results = try context.fetch(descriptor, batchSize: 4)
    let names = try ModelContext(context.container).fetch(descriptor).map(\.name)
    let other = ModelContext(context.container)
    try other.delete(model: Trip.self, where: #Predicate { $0.name == "trip-10" })
    try other.save()
    _ = try context.fetch(FetchDescriptor<Trip>())
    #expect(results.count == 50)
    let deleted = results.filter(\.isDeleted)
    #expect(deleted.count == 1)
    #expect(results.indices.filter { results[$0].isDeleted } == [names.firstIndex(of: "trip-10")!])
  }
}

/// A weak reference to a trip.
private struct Weak {
  weak var object: Trip?
  init(_ object: Trip) { self.object = object }
}
