import ModelGraph
import Testing

@Suite("Rollback")
struct RollbackTests {
  @Test("rollback restores the saved values of changed objects")
  func restoresChangedValues() throws {
    let context = try makeTripContext()
    let trip = PersonalTrip(name: "Beach", reason: .vacation, companions: ["Ann"])
    context.insert(trip)
    try context.save()

    trip.name = "Mountains"
    trip.reason = .adventure
    trip.companions.append("Bo")
    trip.auditCode = "X1"
    context.rollback()

    #expect(trip.name == "Beach")
    #expect(trip.reason == .vacation)
    #expect(trip.companions == ["Ann"])
    #expect(trip.auditCode == nil)
    #expect(!trip.hasChanges)
    let fetched = try context.fetch(
      FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Beach" }))
    #expect(fetched.count == 1)
    #expect(fetched.first === trip)
  }

  @Test(
    "rollback brings deleted objects back, as the same instances")
  func bringsBackDeleted() throws {
    let context = try makeTripContext()
    let trip = BusinessTrip(name: "Summit", company: "Acme")
    context.insert(trip)
    try context.save()

    context.delete(trip)
    #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 0)
    context.rollback()

    #expect(!trip.isDeleted)
    #expect(trip.modelContext === context)
    #expect(trip.company == "Acme")
    let fetched = try context.fetch(FetchDescriptor<Trip>())
    #expect(fetched.count == 1)
    #expect(fetched.first === trip)
    trip.company = "Globex"
    try context.save()
    #expect(try context.fetch(FetchDescriptor<BusinessTrip>()).map(\.company) == ["Globex"])
  }

  @Test("rollback un-inserts new objects, which keep their values and can be inserted again")
  func unInsertsNewObjects() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let context = ModelContext(container)
    let trip = PersonalTrip(name: "Lake", reason: .family, companions: ["Cy"])
    context.insert(trip)
    trip.name = "Lake Como"
    trip.auditCode = "A7"
    context.rollback()

    #expect(trip.modelContext == nil)
    #expect(!trip.hasChanges)
    #expect(!trip.isDeleted)
    #expect(trip.name == "Lake Como")
    #expect(trip.reason == .family)
    #expect(trip.companions == ["Cy"])
    #expect(trip.auditCode == "A7")
    #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 0)
    #expect(context.insertedModelsArray.isEmpty)
    #expect(!context.hasChanges)

    context.insert(trip)
    try context.save()
    let fetched = try #require(
      try ModelContext(container).fetch(FetchDescriptor<PersonalTrip>()).first)
    #expect(fetched.name == "Lake Como")
    #expect(fetched.companions == ["Cy"])
    #expect(fetched.auditCode == "A7")
  }

  @Test("rollback leaves the store and other contexts as they were")
  func leavesStoreAlone() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let context = ModelContext(container)
    context.insert(Trip(name: "Saved"))
    try context.save()
    let before = container.store.version.number

    let saved = try #require(try context.fetch(FetchDescriptor<Trip>()).first)
    saved.name = "Renamed"
    context.insert(Trip(name: "New"))
    context.rollback()

    #expect(container.store.version.number == before)
    #expect(try ModelContext(container).fetch(FetchDescriptor<Trip>()).map(\.name) == ["Saved"])
    #expect(try context.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Saved"])
  }

  @Test("an object un-inserted by rollback still has its never-set attribute unset")
  func unInsertedKeepsMissingAttribute() throws {
    let context = try makeTripContext()
    let trip = BusinessTrip()
    trip.name = "No company"
    trip.startDate = .distantPast
    trip.identifier = UUID()
    context.insert(trip)
    context.rollback()

    context.insert(trip)
    let error = try #require(throws: ModelError.self) { try context.save() }
    #expect(error.code == .validationFailed)
    #expect(error.violations.map(\.property) == ["company"])
  }
}
