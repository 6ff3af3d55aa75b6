import ModelGraph
import Testing

private let byName = [SortDescriptor(\Trip.name)]

@Suite("Several contexts on one container")
struct MultipleContextTests {
  @Test("a context without pending changes sees another context's save on its next fetch")
  func seesOtherSave() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let writer = ModelContext(container)
    let reader = ModelContext(container)
    let trip = Trip(name: "Original")
    writer.insert(trip)
    try writer.save()

    let held = try #require(try reader.fetch(FetchDescriptor<Trip>()).first)
    #expect(held.name == "Original")

    trip.name = "Changed"
    writer.insert(Trip(name: "Second"))
    try writer.save()

    let fetched = try reader.fetch(FetchDescriptor<Trip>(sortBy: byName))
    #expect(fetched.map(\.name) == ["Changed", "Second"])
    #expect(fetched.contains { $0 === held })
    #expect(held.name == "Changed")
    #expect(try reader.fetchCount(FetchDescriptor<Trip>()) == 2)
  }

  @Test("an object inserted and deleted unsaved, then another context's save: both saves land")
  func discardedInsertThenOtherSave() throws {
    let container = try makeInMemoryContainer(Trip.self, BusinessTrip.self)
    let first = ModelContext(container)
    let second = ModelContext(container)
    first.insert(Trip(name: "Kept"))
    let discarded = Trip(name: "Discarded")
    first.insert(discarded)
    first.delete(discarded)
    // Another class: the trips' table of the version saved does not reach the discarded row.
    second.insert(BusinessTrip(name: "Other", company: "Acme"))
    try second.save()
    try first.save()  // rebases past the discarded object's row
    first.insert(Trip(name: "Later"))
    try first.save()
    let names = try ModelContext(container).fetch(FetchDescriptor<Trip>(sortBy: byName))
      .map(\.name)
    #expect(names == ["Kept", "Later", "Other"])
  }

  @Test("model(for:) on a clean context resolves an object saved after the context was made")
  func modelForSeesLaterSave() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let reader = ModelContext(container)
    #expect(try reader.fetchCount(FetchDescriptor<Trip>()) == 0)
    let writer = ModelContext(container)
    let trip = Trip(name: "Original")
    writer.insert(trip)
    try writer.save()

    let found = try #require(reader.model(for: trip.persistentModelID) as? Trip)
    #expect(found.name == "Original")
    trip.name = "Changed"
    try writer.save()
    #expect((reader.model(for: trip.persistentModelID) as? Trip)?.name == "Changed")

    // A context with unsaved changes keeps reading the state it started them on (with
    // residency=fetched it reads the newest: the database keeps no older state).
    found.name = "Mine"
    writer.insert(Trip(name: "Second"))
    try writer.save()
    let second = try #require(
      try writer.fetch(FetchDescriptor<Trip>()).first { $0.name == "Second" })
    #expect((reader.model(for: second.persistentModelID) == nil) == !testsRunOnFetchedResidency)
    #expect(found.name == "Mine")
  }

  @Test("a context sees subclasses another context registered after it was made")
  func seesNewSubclass() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let reader = ModelContext(container)
    #expect(try reader.fetchCount(FetchDescriptor<Trip>()) == 0)

    let writer = ModelContext(container)
    writer.insert(PersonalTrip(name: "Beach", reason: .vacation))
    writer.insert(BusinessTrip(name: "Summit", company: "Acme"))
    try writer.save()

    let trips = try reader.fetch(FetchDescriptor<Trip>(sortBy: byName))
    #expect(trips.map(\.name) == ["Beach", "Summit"])
    #expect(trips.first is PersonalTrip)
    #expect(try reader.fetch(FetchDescriptor<BusinessTrip>()).map(\.company) == ["Acme"])
  }

  @Test(
    "a context with pending changes keeps its view, and sees both after its own save",
    .disabled(if: testsRunOnFetchedResidency, readsNewestWithUnsavedChanges))
  func pendingContextKeepsItsView() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let first = ModelContext(container)
    let second = ModelContext(container)
    let mine = Trip(name: "Mine")
    second.insert(mine)

    first.insert(Trip(name: "Theirs"))
    try first.save()
    #expect(try second.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Mine"])

    try second.save()
    #expect(
      try second.fetch(FetchDescriptor<Trip>(sortBy: byName)).map(\.name) == ["Mine", "Theirs"])
    #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 2)
  }

  @Test("changes to different objects saved by two contexts both land")
  func interleavedSavesOfDifferentObjects() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let setup = ModelContext(container)
    setup.insert(Trip(name: "a"))
    setup.insert(Trip(name: "b"))
    try setup.save()

    let first = ModelContext(container)
    let second = ModelContext(container)
    let a = try #require(
      try first.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "a" })).first)
    let b = try #require(
      try second.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "b" })).first)
    a.auditCode = "first"
    b.auditCode = "second"
    first.insert(Trip(name: "from-first"))
    second.insert(Trip(name: "from-second"))
    try first.save()
    try second.save()

    let all = try ModelContext(container).fetch(FetchDescriptor<Trip>(sortBy: byName))
    #expect(all.map(\.name) == ["a", "b", "from-first", "from-second"])
    #expect(all.map(\.auditCode) == ["first", "second", nil, nil])
  }

  @Test("concurrent saves from two tasks all land")
  func concurrentSaves() async throws {
    let container = try makeInMemoryContainer(Trip.self)
    let setup = ModelContext(container)
    setup.insert(Trip(name: "owner-0"))
    setup.insert(Trip(name: "owner-1"))
    try setup.save()
    let rounds = 20

    try await withThrowingTaskGroup(of: Void.self) { group in
      for worker in 0..<2 {
        group.addTask {
          let context = ModelContext(container)
          let ownerName = "owner-\(worker)"
          let owner = try #require(
            try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == ownerName }))
              .first)
          for round in 0..<rounds {
            context.insert(
              worker == 0
                ? Trip(name: "w\(worker)-\(round)")
                : BusinessTrip(name: "w\(worker)-\(round)", company: "c"))
            owner.auditCode = "\(round)"
            try context.save()
            await Task.yield()
          }
        }
      }
      try await group.waitForAll()
    }

    let reader = ModelContext(container)
    #expect(try reader.fetchCount(FetchDescriptor<Trip>()) == 2 + 2 * rounds)
    #expect(try reader.fetchCount(FetchDescriptor<BusinessTrip>()) == rounds)
    let owners = try reader.fetch(
      FetchDescriptor<Trip>(predicate: #Predicate { $0.name.starts(with: "owner") }, sortBy: byName)
    )
    #expect(owners.map(\.auditCode) == ["\(rounds - 1)", "\(rounds - 1)"])
    let names = Set(try reader.fetch(FetchDescriptor<Trip>()).map(\.name))
    #expect(names.count == 2 + 2 * rounds)
  }
}
