import ModelGraph
import Testing

@Suite("Cascades over objects nobody fetched")
struct CascadeWithoutHandlesTests {
  @Test("deletedModelsArray lists every cascaded object; rollback and save behave as with handles")
  func cascadeWithoutHandles() throws {
    let container = try makeRelationshipTripContainer()
    let setup = ModelContext(container)
    let trip = RLTrip(name: "Oslo")
    trip.accommodations = [makeHotel("Grand", rooms: 2), RLAccommodation(name: "Hut")]
    setup.insert(trip)
    try setup.save()
    let tripID = trip.persistentModelID
    let stored = try storedTripCounts(container)
    #expect(stored == [1, 2, 2, 2, 0, 0, 0])

    // A fresh context holds only the trip: the cascade reaches rows with no object.
    let context = ModelContext(container)
    let fetched = try #require(context.model(for: tripID) as? RLTrip)
    context.delete(fetched)
    let deleted = context.deletedModelsArray
    #expect(deleted.count == 7)
    #expect(deleted.allSatisfy { $0.isDeleted })
    #expect(
      Set(deleted.map { String(describing: type(of: $0)) })
        == ["RLTrip", "RLHotel", "RLAccommodation", "RLRoom", "RLRoomNote"])
    #expect(
      context.deletedModelsArray.map(ObjectIdentifier.init) == deleted.map(ObjectIdentifier.init))

    context.rollback()
    #expect(context.deletedModelsArray.isEmpty)
    #expect(try context.fetchCount(FetchDescriptor<RLRoomNote>()) == 2)

    context.delete(fetched)
    try context.save()
    #expect(try storedTripCounts(container) == [0, 0, 0, 0, 0, 0, 0])
    #expect(context.deletedModelsArray.isEmpty)
  }
}
