import ModelGraph
import Testing

@Suite("Insert, fetch, change and delete")
struct InsertFetchChangeDeleteTests {
  @Test(
    "an inserted object is fetched before the save, and by other contexts only after it")
  func insertThenSave() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let context = ModelContext(container)
    let trip = Trip(name: "Paris")
    context.insert(trip)
    let pending = try context.fetch(FetchDescriptor<Trip>())
    #expect(pending.count == 1)
    #expect(pending.first === trip)
    #expect(try ModelContext(container).fetch(FetchDescriptor<Trip>()).isEmpty)

    try context.save()
    let other = try ModelContext(container).fetch(FetchDescriptor<Trip>())
    #expect(other.map(\.name) == ["Paris"])
    #expect(other.first?.identifier == trip.identifier)
  }

  @Test("inserting the same object twice stores it once")
  func insertTwice() throws {
    let context = try makeTripContext()
    let trip = Trip(name: "Oslo")
    context.insert(trip)
    context.insert(trip)
    try context.save()
    context.insert(trip)
    #expect(!context.hasChanges)
    #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 1)
  }

  @Test("a change is seen at once in its context and elsewhere only after the save")
  func change() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let context = ModelContext(container)
    let trip = BusinessTrip(name: "Summit", company: "Acme")
    context.insert(trip)
    try context.save()

    trip.name = "Summit 2"
    trip.company = "Globex"
    #expect(trip.name == "Summit 2")
    let before = try #require(
      try ModelContext(container).fetch(FetchDescriptor<BusinessTrip>()).first)
    #expect(before.name == "Summit")
    #expect(before.company == "Acme")

    try context.save()
    let after = try #require(
      try ModelContext(container).fetch(FetchDescriptor<BusinessTrip>()).first)
    #expect(after.name == "Summit 2")
    #expect(after.company == "Globex")
  }

  @Test(
    "a deleted object leaves its context's fetches at once and the store at the save")
  func delete() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let context = ModelContext(container)
    let keep = Trip(name: "Keep")
    let drop = PersonalTrip(name: "Drop", reason: .family)
    context.insert(keep)
    context.insert(drop)
    try context.save()

    context.delete(drop)
    #expect(drop.isDeleted)
    #expect(try context.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Keep"])
    #expect(
      sortedNames(try ModelContext(container).fetch(FetchDescriptor<Trip>())) == ["Drop", "Keep"])

    try context.save()
    #expect(drop.isDeleted)
    #expect(drop.modelContext == nil)
    #expect(keep.modelContext === context)
    #expect(try ModelContext(container).fetch(FetchDescriptor<Trip>()).map(\.name) == ["Keep"])
    #expect(try ModelContext(container).fetchCount(FetchDescriptor<PersonalTrip>()) == 0)
  }

  @Test("deleting an inserted object before the save discards it")
  func deleteInserted() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let context = ModelContext(container)
    let trip = Trip(name: "Never")
    context.insert(trip)
    context.delete(trip)
    #expect(trip.isDeleted)
    #expect(try context.fetch(FetchDescriptor<Trip>()).isEmpty)
    try context.save()
    #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 0)
  }

  @Test("a transient property is neither saved nor fetched")
  func transientNotPersisted() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let context = ModelContext(container)
    let trip = Trip(name: "Scratch")
    trip.scratch = 42
    context.insert(trip)
    try context.save()
    #expect(trip.scratch == 42)
    let fetched = try #require(try ModelContext(container).fetch(FetchDescriptor<Trip>()).first)
    #expect(fetched.scratch == 0)
  }
}
