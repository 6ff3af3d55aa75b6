import ModelGraph
import Testing

@Suite("Relationships: deletion records of preserved values")
struct RelationshipDeletionRecordTests {
  @Test("a save returns a record per deleted object, with its preserved values only")
  func recordsOfCascade() throws {
    let container = try makeRelationshipTripContainer()
    let context = ModelContext(container)
    let trip = makeBusinessTrip("Summit")
    trip.code = "S-1"
    context.insert(trip)
    trip.accommodations = [makeHotel("Grand", rooms: 2)]
    let kept = makePersonalTrip("Beach")
    context.insert(kept)
    try context.save()
    let hotel = try #require(trip.accommodations.first as? RLHotel)
    let tripID = trip.persistentModelID
    let roomIDs = hotel.rooms.map(\.persistentModelID)

    let base: RLTrip = trip
    context.delete(base)
    let records = try context.save()

    // The trip, the hotel, two rooms and two notes.
    #expect(records.count == 6)
    let tripRecord = try #require(records.first { $0.identifier == tripID })
    #expect(tripRecord.entityName == "RLBusinessTrip")
    #expect(tripRecord.preservedValues == ["code": .string("S-1")])
    let roomRecords = records.filter { roomIDs.contains($0.identifier) }
    #expect(roomRecords.count == 2)
    #expect(Set(roomRecords.map(\.entityName)) == ["RLRoom"])
    #expect(
      Set(roomRecords.compactMap { $0.preservedValues["number"] }) == [.int(1), .int(2)])
    let others = records.filter { $0.entityName == "RLHotel" || $0.entityName == "RLRoomNote" }
    #expect(others.count == 3)
    #expect(others.allSatisfy { $0.preservedValues.isEmpty })
  }

  @Test("a save with no deletion returns no records; a new object deleted before it neither")
  func noRecords() throws {
    let context = try makeInMemoryContext(RLLibrary.self)
    let library = RLLibrary(name: "Central")
    context.insert(library)
    #expect(try context.save().isEmpty)
    let draft = RLBook(title: "Draft", isbn: "0")
    library.books.append(draft)
    context.delete(draft)
    #expect(try context.save().isEmpty)
  }

  @Test("records come from the save that published the deletion, not from a failed one")
  func recordsAfterFailedSave() throws {
    let context = try makeInMemoryContext(RLLibrary.self)
    let library = RLLibrary(name: "Central")
    context.insert(library)
    let event = RLEvent(title: "Reading")
    library.events = [event]
    library.books = [RLBook(title: "Dune", isbn: "978-0441013593")]
    try context.save()

    context.delete(library)
    #expect(throws: ModelError.self) { try context.save() }
    context.delete(event)
    let records = try context.save()
    #expect(records.count == 3)
    let book = try #require(records.first { $0.entityName == "RLBook" })
    #expect(book.preservedValues == ["isbn": .string("978-0441013593")])
  }
}
