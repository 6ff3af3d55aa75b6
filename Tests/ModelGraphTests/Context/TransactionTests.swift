import ModelGraph
import Testing

private struct Abort: Error {}

@Suite("transaction { }")
struct TransactionTests {
  @Test("a block that returns normally is saved")
  func commits() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let context = ModelContext(container)
    let existing = Trip(name: "Existing")
    context.insert(existing)
    try context.save()

    try context.transaction {
      context.insert(BusinessTrip(name: "New", company: "Acme"))
      existing.name = "Renamed"
    }
    #expect(!context.hasChanges)
    let names = try ModelContext(container).fetch(
      FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
    ).map(\.name)
    #expect(names == ["New", "Renamed"])
  }

  @Test("a block that throws is rolled back and the error rethrown")
  func rollsBackOnThrow() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let context = ModelContext(container)
    let existing = Trip(name: "Existing")
    context.insert(existing)
    try context.save()
    let inserted = Trip(name: "New")

    #expect(throws: Abort.self) {
      try context.transaction {
        context.insert(inserted)
        existing.name = "Renamed"
        throw Abort()
      }
    }
    #expect(!context.hasChanges)
    #expect(existing.name == "Existing")
    #expect(inserted.modelContext == nil)
    #expect(inserted.name == "New")
    #expect(try context.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Existing"])
    #expect(try ModelContext(container).fetch(FetchDescriptor<Trip>()).map(\.name) == ["Existing"])
  }

  @Test("a save that fails validation inside a transaction rolls everything back")
  func rollsBackOnFailedSave() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let context = ModelContext(container)
    let error = #expect(throws: ModelError.self) {
      try context.transaction {
        context.insert(Trip(name: "Valid"))
        let incomplete = BusinessTrip(name: "Incomplete")
        context.insert(incomplete)
      }
    }
    #expect(error?.code == .validationFailed)
    #expect(!context.hasChanges)
    #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 0)
  }
}
