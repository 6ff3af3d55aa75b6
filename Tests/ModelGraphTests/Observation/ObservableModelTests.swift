import Foundation
import ModelGraph
import Observation
import Testing

@Suite("Observable model objects")
struct ObservableModelTests {
  let container: ModelContainer
  let context: ModelContext

  init() throws {
    container = try makeInMemoryContainer(Trip.self, RLDepartment.self, RLEmployee.self)
    context = ModelContext(container)
  }

  private func savedTrips(_ names: String...) throws -> [Trip] {
    let trips = names.map { Trip(name: $0) }
    for trip in trips { context.insert(trip) }
    try context.save()
    return trips
  }

  @Test("a write by the same context to a read attribute fires; to another attribute it does not")
  func sameContextAttributeWrites() throws {
    let trip = try savedTrips("Oslo")[0]
    let name = track { _ = trip.name }
    trip.startDate = Date(timeIntervalSince1970: 0)
    #expect(name.value == 0)
    trip.name = "Bergen"
    #expect(name.value == 1)
  }

  @Test("a write to the same attribute of an object in another row bucket does not fire")
  func otherObjectDoesNotFire() throws {
    let trips = try savedTrips("Oslo", "Bergen")
    let name = track { _ = trips[0].name }
    trips[1].name = "Trondheim"
    #expect(name.value == 0)
    trips[0].name = "Tromsø"
    #expect(name.value == 1)
  }

  @Test("an inserted object's attribute is tracked before its first save")
  func insertedObject() {
    let trip = Trip(name: "Oslo")
    context.insert(trip)
    let name = track { _ = trip.name }
    trip.name = "Bergen"
    #expect(name.value == 1)
  }

  @Test("a relationship read fires when its inverse is set from the other side")
  func relationshipThroughInverse() throws {
    let department = RLDepartment(name: "Sales")
    let employee = RLEmployee(name: "Ada")
    context.insert(department)
    context.insert(employee)
    try context.save()
    let employees = track { _ = department.employees }
    let unrelated = track { _ = employee.mentor }
    employee.department = department
    #expect(employees.value == 1)
    #expect(unrelated.value == 0)
    let head = track { _ = employee.department }
    department.employees = []
    #expect(head.value == 1)
  }

  @Test("another context's save of a read attribute fires when this context takes it in")
  func foreignSaveFiresOnRefresh() throws {
    let trip = try savedTrips("Oslo")[0]
    let name = track { _ = trip.name }
    let date = track { _ = trip.startDate }

    let other = ModelContext(container)
    let copy = try #require(other.model(for: trip.persistentModelID) as? Trip)
    copy.name = "Bergen"
    try other.save()
    #expect(name.value == 0, "nothing fires before this context moves onto the save")

    _ = try context.fetch(FetchDescriptor<Trip>())
    #expect(name.value == 1)
    #expect(date.value == 0, "the save did not change startDate")
    #expect(trip.name == "Bergen")
  }

  @Test("a save that moves onto another context's save fires what that save changed")
  func foreignSaveFiresOnOwnSave() throws {
    let trips = try savedTrips("Oslo", "Bergen")
    let name = track { _ = trips[0].name }
    let other = ModelContext(container)
    let copy = try #require(other.model(for: trips[0].persistentModelID) as? Trip)
    copy.name = "Tromsø"
    try other.save()
    trips[1].startDate = Date(timeIntervalSince1970: 0)
    try context.save()
    #expect(name.value == 1)
    #expect(trips[0].name == "Tromsø")
  }

  @Test("another context's deletion fires the deleted object's trackings")
  func foreignDeletionFires() throws {
    let trip = try savedTrips("Oslo")[0]
    let name = track { _ = trip.name }
    let other = ModelContext(container)
    other.delete(try #require(other.model(for: trip.persistentModelID) as? Trip))
    try other.save()
    _ = try context.fetchCount(FetchDescriptor<Trip>())
    _ = context.model(for: trip.persistentModelID)
    #expect(name.value == 1)
  }

  @Test("without the history to say what changed, taking in a foreign save fires every tracking")
  func foreignSaveWithoutHistoryFiresConservatively() throws {
    let trip = try savedTrips("Oslo")[0]
    container.store.history.retention = .init(transactions: 0)
    let date = track { _ = trip.startDate }
    let other = ModelContext(container)
    let copy = try #require(other.model(for: trip.persistentModelID) as? Trip)
    copy.name = "Bergen"
    try other.save()
    _ = context.model(for: trip.persistentModelID)
    #expect(date.value == 1)
  }

  @Test("deleting an object fires its trackings and no other object's")
  func deletionFires() throws {
    let trips = try savedTrips("Oslo", "Bergen")
    let deleted = track { _ = trips[0].name }
    let kept = track { _ = trips[1].name }
    context.delete(trips[0])
    #expect(deleted.value == 1)
    #expect(kept.value == 0)
  }

  @Test("a rollback fires the trackings of the objects it reverts")
  func rollbackFires() throws {
    let trip = try savedTrips("Oslo")[0]
    trip.name = "Bergen"
    let name = track { _ = trip.name }
    context.rollback()
    #expect(name.value == 1)
    #expect(trip.name == "Oslo")
  }

  @Test("an upsert fires the trackings of the saved object it writes into")
  func upsertFires() throws {
    context.uniquenessPolicy = .upsert
    let original = try savedTrips("Oslo")[0]
    let name = track { _ = original.name }
    let date = track { _ = original.startDate }
    let replacement = Trip(name: "Bergen")
    replacement.identifier = original.identifier
    context.insert(replacement)
    let replacementName = track { _ = replacement.name }
    try context.save()
    #expect(name.value == 1 && date.value == 1)
    #expect(replacementName.value == 1, "the new instance left its row")
    #expect(original.name == "Bergen")
  }

  @Test("the context's own save does not fire again for writes already reported")
  func ownSaveDoesNotRefire() throws {
    let trip = try savedTrips("Oslo")[0]
    trip.name = "Bergen"
    let name = track { _ = trip.name }
    try context.save()
    _ = try context.fetch(FetchDescriptor<Trip>())
    #expect(name.value == 0)
  }

  @Test("a write from an onChange a rebased save fires, to an object it inserted, is kept")
  func writeFromOnChangeAfterRebasedSave() throws {
    let other = ModelContext(container)
    let saved = try savedTrips("Oslo")[0]
    let seen = try #require(try other.fetch(FetchDescriptor<Trip>()).first)
    let inserted = Trip(name: "Bergen")
    other.insert(inserted)
    nonisolated(unsafe) let written = inserted
    withObservationTracking {
      _ = seen.name
    } onChange: {
      written.name = "Tromsø"
    }
    saved.name = "Stavanger"
    try context.save()
    // The save replays onto the one above, then fires the tracking of `seen.name`.
    try other.save()
    #expect(other.hasChanges, "the write in onChange waits for the next save")
    try other.save()
    let names = try ModelContext(container).fetch(FetchDescriptor<Trip>()).map(\.name)
    #expect(names.sorted() == ["Stavanger", "Tromsø"])
  }

  @Test("an onChange that rolls back the context only the written object holds ends safely")
  func rollbackOfContextOnlyTheObjectHolds() {
    let trip = Trip(name: "Oslo")
    weak var released: ModelContext?
    do {
      let only = ModelContext(container)
      only.insert(trip)
      released = only
    }
    #expect(released != nil, "the inserted object keeps its context")
    nonisolated(unsafe) let written = trip
    let count = ChangeCount()
    withObservationTracking {
      _ = trip.name
    } onChange: {
      count.increment()
      written.modelContext?.rollback()
    }
    // The rollback inside the write drops the object's hold on the context: the write must
    // not use the context after that.
    trip.name = "Bergen"
    #expect(count.value == 1)
    #expect(trip.modelContext == nil)
    #expect(released == nil)
  }
}

@Suite("Observable model objects: turning reads off")
struct ObservesReadsTests {
  @Test("a context with observesReads off tracks no read; turned on again, it does")
  func readsOff() throws {
    let context = try makeInMemoryContext(Trip.self)
    let trip = Trip(name: "Oslo")
    context.insert(trip)
    try context.save()
    context.observesReads = false
    let offCount = ChangeCount()
    withObservationTracking {
      _ = trip.name
    } onChange: {
      offCount.increment()
    }
    trip.name = "Bergen"
    #expect(offCount.value == 0)

    context.observesReads = true
    let onCount = ChangeCount()
    withObservationTracking {
      _ = trip.name
    } onChange: {
      onCount.increment()
    }
    trip.name = "Tromsø"
    #expect(onCount.value == 1)
  }
}
