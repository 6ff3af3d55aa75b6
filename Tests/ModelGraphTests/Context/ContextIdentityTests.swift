import ModelGraph
import Testing

@Suite("Identity map through a context: one object per row")
struct ContextIdentityTests {
  @Test("fetching twice, deep or shallow, gives the same instances")
  func sameInstanceAcrossFetches() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let writer = ModelContext(container)
    writer.insert(Trip(name: "A"))
    writer.insert(BusinessTrip(name: "B", company: "C"))
    try writer.save()

    let context = ModelContext(container)
    let first = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
    let second = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
    try #require(first.count == 2)
    #expect(first[0] === second[0])
    #expect(first[1] === second[1])
    let shallow = try #require(try context.fetch(FetchDescriptor<BusinessTrip>()).first)
    #expect(shallow === first[1])
  }

  @Test("the inserted instance is the one fetches and model(for:) return")
  func insertedInstanceIsRegistered() throws {
    let context = try makeTripContext()
    let trip = PersonalTrip(name: "P", reason: .family)
    context.insert(trip)
    let id = trip.persistentModelID
    #expect(context.model(for: id) === trip)
    #expect(context.registeredModel(for: id) as PersonalTrip? === trip)
    try context.save()
    #expect(try context.fetch(FetchDescriptor<Trip>()).first === trip)
    #expect(context.model(for: id) === trip)
  }

  @Test("registeredModel(for:) finds only objects this context has materialized")
  func registeredModelOnlyWhenMaterialized() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let writer = ModelContext(container)
    let trip = Trip(name: "A")
    writer.insert(trip)
    try writer.save()
    let id = trip.persistentModelID

    let reader = ModelContext(container)
    #expect(reader.registeredModel(for: id) as Trip? == nil)
    let materialized = try #require(reader.model(for: id) as? Trip)
    #expect(materialized !== trip)
    #expect(materialized.name == "A")
    #expect(reader.registeredModel(for: id) as Trip? === materialized)
    #expect(reader.model(for: id) === materialized)
    #expect(try reader.fetch(FetchDescriptor<Trip>()).first === materialized)
  }

  @Test("registeredModel(for:) with the wrong class gives nil")
  func registeredModelWrongClass() throws {
    let context = try makeTripContext()
    let trip = Trip(name: "A")
    context.insert(trip)
    #expect(context.registeredModel(for: trip.persistentModelID) as BusinessTrip? == nil)
    #expect(context.registeredModel(for: trip.persistentModelID) as Trip? === trip)
  }

  @Test("an object no longer referenced leaves the identity map; a refetch makes a new handle")
  func releasedObjectsLeaveTheMap() throws {
    let context = try makeTripContext()
    weak var weakTrip: Trip?
    let id: PersistentIdentifier
    do {
      let trip = Trip(name: "Fleeting")
      context.insert(trip)
      try context.save()
      id = trip.persistentModelID
      weakTrip = trip
    }
    #expect(weakTrip == nil)
    #expect(context.registeredModel(for: id) as Trip? == nil)
    let fetched = try #require(try context.fetch(FetchDescriptor<Trip>()).first)
    #expect(fetched.persistentModelID == id)
    #expect(fetched.name == "Fleeting")
    #expect(context.registeredModel(for: id) as Trip? === fetched)
  }
}
