import ModelGraph
import Testing

@Suite("Change tracking")
struct ChangeTrackingTests {
  @Test("a new context has no changes")
  func newContext() throws {
    let context = try makeTripContext()
    #expect(!context.hasChanges)
    #expect(context.insertedModelsArray.isEmpty)
    #expect(context.changedModelsArray.isEmpty)
    #expect(context.deletedModelsArray.isEmpty)
  }

  @Test("inserts are listed in insertion order until the save")
  func inserted() throws {
    let context = try makeTripContext()
    let first = Trip(name: "A")
    let second = BusinessTrip(name: "B", company: "C")
    context.insert(first)
    context.insert(second)
    #expect(context.hasChanges)
    #expect(first.hasChanges)
    #expect(
      context.insertedModelsArray.map(ObjectIdentifier.init)
        == [first, second].map(ObjectIdentifier.init))
    #expect(context.changedModelsArray.isEmpty)

    second.company = "D"
    #expect(context.changedModelsArray.isEmpty)

    try context.save()
    #expect(!context.hasChanges)
    #expect(!first.hasChanges)
    #expect(context.insertedModelsArray.isEmpty)
  }

  @Test("a saved object changed twice is listed once, until the save")
  func changed() throws {
    let context = try makeTripContext()
    let trip = Trip(name: "A")
    let untouched = Trip(name: "B")
    context.insert(trip)
    context.insert(untouched)
    try context.save()

    trip.name = "A2"
    trip.auditCode = "x"
    #expect(context.hasChanges)
    #expect(trip.hasChanges)
    #expect(!untouched.hasChanges)
    #expect(context.changedModelsArray.count == 1)
    #expect(context.changedModelsArray.first === trip)
    #expect(context.insertedModelsArray.isEmpty)

    try context.save()
    #expect(!context.hasChanges)
    #expect(!trip.hasChanges)
    #expect(context.changedModelsArray.isEmpty)
  }

  @Test("a changed object that is then deleted is listed as deleted only")
  func changedThenDeleted() throws {
    let context = try makeTripContext()
    let trip = Trip(name: "A")
    context.insert(trip)
    try context.save()

    trip.name = "A2"
    context.delete(trip)
    #expect(context.changedModelsArray.isEmpty)
    #expect(context.deletedModelsArray.count == 1)
    #expect(context.deletedModelsArray.first === trip)
    #expect(trip.hasChanges)
    #expect(context.hasChanges)

    try context.save()
    #expect(context.deletedModelsArray.isEmpty)
    #expect(!context.hasChanges)
  }

  @Test("an object inserted and deleted before any save leaves no change behind")
  func insertedThenDeleted() throws {
    let context = try makeTripContext()
    let trip = Trip(name: "Gone")
    context.insert(trip)
    context.delete(trip)
    #expect(context.insertedModelsArray.isEmpty)
    #expect(context.deletedModelsArray.isEmpty)
    #expect(!context.hasChanges)
  }

  @Test("rollback clears every list")
  func rollbackClears() throws {
    let context = try makeTripContext()
    let saved = Trip(name: "Saved")
    let deleted = Trip(name: "Deleted")
    context.insert(saved)
    context.insert(deleted)
    try context.save()
    saved.name = "Changed"
    context.delete(deleted)
    context.insert(Trip(name: "New"))
    #expect(context.changedModelsArray.count == 1)
    #expect(context.deletedModelsArray.count == 1)
    #expect(context.insertedModelsArray.count == 1)

    context.rollback()
    #expect(!context.hasChanges)
    #expect(context.insertedModelsArray.isEmpty)
    #expect(context.changedModelsArray.isEmpty)
    #expect(context.deletedModelsArray.isEmpty)
  }
}
