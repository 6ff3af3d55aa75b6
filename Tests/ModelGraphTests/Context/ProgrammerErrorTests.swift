import ModelGraph
import Testing

/// Each test runs its body in a child process and expects that process to stop: misuse of the
/// API is a programmer error that traps with a message, never silent corruption.
@Suite("Programmer errors stop the process")
struct ProgrammerErrorTests {
  @Test("reading a property of an object deleted and not yet saved stops")
  func pendingDeletedObjectUse() async {
    await #expect(processExitsWith: .failure) {
      let context = try makeTripContext()
      let trip = Trip(name: "Gone")
      context.insert(trip)
      try context.save()
      context.delete(trip)
      _ = trip.name
    }
  }

  @Test("reading an attribute of an inserted object before it is set stops")
  func unsetAttributeOfInsertedObject() async {
    await #expect(processExitsWith: .failure) {
      let context = try makeTripContext()
      let trip = Trip()
      context.insert(trip)
      _ = trip.startDate
    }
  }

  @Test("writing a property of an object whose deletion was saved stops")
  func savedDeletedObjectUse() async {
    await #expect(processExitsWith: .failure) {
      let context = try makeTripContext()
      let trip = Trip(name: "Gone")
      context.insert(trip)
      try context.save()
      context.delete(trip)
      try context.save()
      trip.name = "Back"
    }
  }

  @Test("inserting an object into a second context stops")
  func objectOfAnotherContext() async {
    await #expect(processExitsWith: .failure) {
      let container = try makeInMemoryContainer(Trip.self)
      let trip = Trip(name: "Shared")
      ModelContext(container).insert(trip)
      ModelContext(container).insert(trip)
    }
  }

  @Test("reading a non-optional attribute that was never set stops, naming class and property")
  func readBeforeSet() async throws {
    let result = try #require(
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = BusinessTrip(name: "No company").company
      })
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(message.contains("BusinessTrip.company was read before it was set"), "\(message)")
  }

  @Test("asking a new object for its persistentModelID stops")
  func identifierBeforeInsert() async {
    await #expect(processExitsWith: .failure) {
      _ = Trip(name: "New").persistentModelID
    }
  }

  @Test("reading an object another context deleted, after its row was reused, stops")
  func staleHandleAfterRowReuse() async {
    await #expect(processExitsWith: .failure) {
      let container = try makeInMemoryContainer(Trip.self)
      let writer = ModelContext(container)
      let reader = ModelContext(container)
      let original = Trip(name: "Original")
      writer.insert(original)
      try writer.save()
      let stale = try reader.fetch(FetchDescriptor<Trip>())[0]
      writer.delete(original)
      try writer.save()
      writer.insert(Trip(name: "Replacement"))
      try writer.save()
      _ = try reader.fetch(FetchDescriptor<Trip>())
      _ = stale.name
    }
  }
}
