import ModelGraph
import Testing

@Suite("Save validation of required attributes")
struct ValidationTests {
  @Test("a non-optional attribute never set fails the save, naming class and property")
  func missingAttribute() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let context = ModelContext(container)
    context.insert(Trip(name: "Valid"))
    let incomplete = BusinessTrip(name: "Incomplete")
    context.insert(incomplete)

    let error = try #require(throws: ModelError.self) { try context.save() }
    #expect(error.code == .validationFailed)
    #expect(error.violations.count == 1)
    let violation = try #require(error.violations.first)
    #expect(violation.entity == "BusinessTrip")
    #expect(violation.property == "company")
    #expect(violation.identifier == incomplete.persistentModelID)
    #expect(error.description.contains("BusinessTrip.company"))
  }

  @Test("an attribute set after insertion reads its value, and the save then succeeds")
  func setAfterInsertion() throws {
    let context = try makeInMemoryContext(Trip.self)
    let incomplete = BusinessTrip(name: "Late")
    context.insert(incomplete)
    #expect(throws: ModelError.self) { try context.save() }
    incomplete.company = "Acme"
    #expect(incomplete.company == "Acme")
    try context.save()
    #expect(incomplete.company == "Acme")
    let fetched = try ModelContext(context.container).fetch(FetchDescriptor<BusinessTrip>())
    #expect(fetched.map(\.company) == ["Acme"])
  }

  @Test("a failed save leaves the store unchanged and the changes pending")
  func storeUnchanged() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let context = ModelContext(container)
    let saved = Trip(name: "Saved")
    context.insert(saved)
    try context.save()
    let version = container.store.version.number

    saved.name = "Renamed"
    context.insert(Trip(name: "Valid"))
    let incomplete = BusinessTrip(name: "Incomplete")
    context.insert(incomplete)
    #expect(throws: ModelError.self) { try context.save() }

    #expect(container.store.version.number == version)
    let other = ModelContext(container)
    #expect(try other.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Saved"])
    #expect(context.hasChanges)
    #expect(context.insertedModelsArray.count == 2)

    incomplete.company = "Acme"
    try context.save()
    let names = try ModelContext(container).fetch(
      FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
    ).map(\.name)
    #expect(names == ["Incomplete", "Renamed", "Valid"])
  }

  @Test("every missing attribute of every object is listed")
  func listsAllViolations() throws {
    let context = try makeTripContext()
    context.insert(Trip())
    context.insert(PersonalTrip(name: "No reason"))
    let error = try #require(throws: ModelError.self) { try context.save() }
    let listed = Set(error.violations.map { "\($0.entity).\($0.property)" })
    #expect(
      listed == [
        "Trip.name", "Trip.startDate", "Trip.identifier", "PersonalTrip.reason",
        "PersonalTrip.companions",
      ])
  }

  @Test("optional attributes and attributes with initial values need not be set")
  func optionalsAndDefaults() throws {
    let context = try makeTripContext()
    let trip = Trip(name: "Minimal")
    #expect(trip.auditCode == nil)
    context.insert(trip)
    try context.save()
    #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 1)
  }

  @Test("an incomplete object deleted before the save does not fail it")
  func deletedIncompleteObject() throws {
    let context = try makeTripContext()
    let incomplete = BusinessTrip(name: "Incomplete")
    context.insert(incomplete)
    context.delete(incomplete)
    context.insert(Trip(name: "Valid"))
    try context.save()
    #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 1)
  }

  @Test("setting the missing attribute after the insert satisfies validation")
  func setAfterInsert() throws {
    let context = try makeTripContext()
    let trip = BusinessTrip(name: "Late")
    context.insert(trip)
    trip.company = "Acme"
    try context.save()
    #expect(try context.fetch(FetchDescriptor<BusinessTrip>()).map(\.company) == ["Acme"])
  }
}
