import ModelGraph
import Testing

@Suite("Persistent identifiers")
struct PersistentIdentifierTests {
  @Test("an identifier is stable across save, refetch and contexts, and names the class")
  func stable() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let context = ModelContext(container)
    let trip = BusinessTrip(name: "B", company: "C")
    context.insert(trip)
    let beforeSave = trip.persistentModelID
    try context.save()
    #expect(trip.persistentModelID == beforeSave)
    #expect(beforeSave.entityName == "BusinessTrip")

    trip.name = "B2"
    try context.save()
    #expect(trip.persistentModelID == beforeSave)

    let other = ModelContext(container)
    let fetched = try #require(try other.fetch(FetchDescriptor<Trip>()).first)
    #expect(fetched.persistentModelID == beforeSave)
    #expect(try other.fetchIdentifiers(FetchDescriptor<Trip>()) == [beforeSave])
  }

  @Test("identifiers of different objects differ, and survive a Codable round trip")
  func distinctAndCodable() throws {
    let context = try makeTripContext()
    let trips = (0..<5).map { Trip(name: "T\($0)") } + [BusinessTrip(name: "B", company: "C")]
    for trip in trips { context.insert(trip) }
    try context.save()
    let ids = trips.map(\.persistentModelID)
    #expect(Set(ids).count == ids.count)
    let decoded = try JSONDecoder().decode(
      [PersistentIdentifier].self, from: try JSONEncoder().encode(ids))
    #expect(decoded == ids)
    for (id, trip) in zip(decoded, trips) {
      #expect(context.model(for: id) === trip)
    }
  }

  @Test("a deleted-and-saved object's identifier never resolves to an object inserted later")
  func deletedIdentifierNeverResolves() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let context = ModelContext(container)
    var oldIDs: [PersistentIdentifier] = []
    var live: [Trip] = []
    for round in 0..<4 {
      let trip = Trip(name: "R\(round)")
      context.insert(trip)
      try context.save()
      oldIDs.append(trip.persistentModelID)
      context.delete(trip)
      try context.save()
      let replacement = Trip(name: "N\(round)")
      context.insert(replacement)
      try context.save()
      live.append(replacement)
    }
    let fresh = ModelContext(container)
    for id in oldIDs {
      #expect(context.model(for: id) == nil)
      #expect(fresh.model(for: id) == nil)
      #expect(context.registeredModel(for: id) as Trip? == nil)
    }
    let liveIDs = Set(live.map(\.persistentModelID))
    #expect(liveIDs.isDisjoint(with: oldIDs))
    #expect(Set(try fresh.fetchIdentifiers(FetchDescriptor<Trip>())) == liveIDs)
  }

  @Test("the identifier of an object inserted and deleted before a save never resolves")
  func discardedIdentifierNeverResolves() throws {
    let context = try makeTripContext()
    let discarded = Trip(name: "Discarded")
    context.insert(discarded)
    let id = discarded.persistentModelID
    context.delete(discarded)
    try context.save()
    let next = Trip(name: "Next")
    context.insert(next)
    try context.save()
    #expect(context.model(for: id) == nil)
    #expect(next.persistentModelID != id)
  }

  @Test("the identifier of an insert undone by rollback never resolves")
  func rolledBackIdentifierNeverResolves() throws {
    let context = try makeTripContext()
    let undone = Trip(name: "Undone")
    context.insert(undone)
    let id = undone.persistentModelID
    context.rollback()
    let next = Trip(name: "Next")
    context.insert(next)
    try context.save()
    #expect(context.model(for: id) == nil)
    #expect(next.persistentModelID != id)
  }

  @Test("an identifier of an unknown class or row resolves to nil")
  func unknownIdentifier() throws {
    let context = try makeTripContext()
    let trip = Trip(name: "A")
    context.insert(trip)
    try context.save()
    let id = trip.persistentModelID
    let otherClass = PersistentIdentifier(
      entityName: "Nope", row: id.row, generation: id.generation)
    let otherRow = PersistentIdentifier(
      entityName: id.entityName, row: id.row + 999, generation: id.generation)
    let otherGeneration = PersistentIdentifier(
      entityName: id.entityName, row: id.row, generation: id.generation + 1)
    #expect(context.model(for: otherClass) == nil)
    #expect(context.model(for: otherRow) == nil)
    #expect(context.model(for: otherGeneration) == nil)
    #expect(context.model(for: id) === trip)
  }
}
