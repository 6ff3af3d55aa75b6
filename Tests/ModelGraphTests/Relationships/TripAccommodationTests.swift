import ModelGraph
import Testing

/// A container for the relationship trip hierarchy.
func makeRelationshipTripContainer() throws -> ModelContainer {
  try makeInMemoryContainer(RLTrip.self, RLTraveler.self)
}

/// Counts per class as a new context on `container` sees them: trips, accommodations, rooms,
/// room notes, activities, expenses, visas.
func storedTripCounts(_ container: ModelContainer) throws -> [Int] {
  let other = ModelContext(container)
  return [
    try other.fetchCount(FetchDescriptor<RLTrip>()),
    try other.fetchCount(FetchDescriptor<RLAccommodation>()),
    try other.fetchCount(FetchDescriptor<RLRoom>()),
    try other.fetchCount(FetchDescriptor<RLRoomNote>()),
    try other.fetchCount(FetchDescriptor<RLActivity>()),
    try other.fetchCount(FetchDescriptor<RLExpense>()),
    try other.fetchCount(FetchDescriptor<RLVisa>()),
  ]
}

/// A hotel with `rooms` rooms, each with one note.
func makeHotel(_ name: String, rooms: Int) -> RLHotel {
  let hotel = RLHotel(name: name)
  hotel.rooms = (0..<rooms).map { index in
    let room = RLRoom(number: index + 1)
    room.notes = [RLRoomNote(text: "\(name) \(index + 1)")]
    return room
  }
  return hotel
}

@Suite("Relationships: the trip hierarchy's accommodations")
struct RelationshipTripTests {
  @Test("an accommodation's base-class trip holds business and personal trips, both sides set")
  func baseClassInverse() throws {
    let container = try makeRelationshipTripContainer()
    let context = ModelContext(container)
    let business = makeBusinessTrip("Summit")
    let personal = makePersonalTrip("Beach")
    context.insert(business)
    context.insert(personal)
    let hotel = RLHotel(name: "Grand")
    let campsite = RLCampsite(name: "Dunes")
    hotel.trip = business
    campsite.trip = personal
    #expect(business.accommodations.map(\.name) == ["Grand"])
    #expect(personal.accommodations.map(\.name) == ["Dunes"])

    campsite.trip = business
    #expect(personal.accommodations.isEmpty)
    #expect(business.accommodations.map(\.name) == ["Grand", "Dunes"])
    try context.save()

    let fresh = ModelContext(container)
    let accommodations = try fresh.fetch(
      FetchDescriptor<RLAccommodation>(sortBy: [SortDescriptor(\.name)]))
    #expect(accommodations.map { $0.trip?.name } == ["Summit", "Summit"])
    #expect(accommodations.allSatisfy { $0.trip is RLBusinessTrip })
    #expect(accommodations.first is RLCampsite)
    #expect(accommodations.last is RLHotel)
  }

  @Test("a polymorphic to-many keeps mixed subclasses in order, each as its own class")
  func polymorphicToMany() throws {
    let container = try makeRelationshipTripContainer()
    let context = ModelContext(container)
    let traveler = RLTraveler(name: "Ann")
    context.insert(traveler)
    traveler.trips = [
      makePersonalTrip("P1"), makeBusinessTrip("B1"), RLTrip(name: "T1"), makeBusinessTrip("B2"),
    ]
    #expect(traveler.trips.allSatisfy { $0.travelers.map(\.name) == ["Ann"] })
    try context.save()

    let fresh = ModelContext(container)
    let stored = try #require(try fresh.fetch(FetchDescriptor<RLTraveler>()).first)
    #expect(stored.trips.map(\.name) == ["P1", "B1", "T1", "B2"])
    #expect(
      stored.trips.map { String(describing: type(of: $0)) } == [
        "RLPersonalTrip", "RLBusinessTrip", "RLTrip", "RLBusinessTrip",
      ])
    let business = try fresh.fetch(
      FetchDescriptor<RLBusinessTrip>(sortBy: [SortDescriptor(\.name)]))
    #expect(business.map { $0.travelers.map(\.name) } == [["Ann"], ["Ann"]])
  }

  @Test(
    "deleting a trip cascades through accommodations, hotel rooms and their notes")
  func cascadeAcrossLevels() throws {
    let container = try makeRelationshipTripContainer()
    let context = ModelContext(container)
    let doomed = makeBusinessTrip("Summit")
    let kept = makePersonalTrip("Beach")
    context.insert(doomed)
    context.insert(kept)
    doomed.accommodations = [makeHotel("Grand", rooms: 3), RLCampsite(name: "Dunes")]
    doomed.activities = [RLActivity(name: "Keynote")]
    doomed.expenses = [RLExpense(amount: 10), RLExpense(amount: 20)]
    kept.accommodations = [makeHotel("Inn", rooms: 1)]
    try context.save()
    #expect(try storedTripCounts(container) == [2, 3, 4, 4, 1, 2, 0])

    context.delete(doomed)
    #expect(try context.fetchCount(FetchDescriptor<RLRoomNote>()) == 1)
    try context.save()
    #expect(try storedTripCounts(container) == [1, 1, 1, 1, 0, 0, 0])
    let fresh = ModelContext(container)
    #expect(try fresh.fetch(FetchDescriptor<RLRoomNote>()).map(\.text) == ["Inn 1"])
    let trip = try #require(try fresh.fetch(FetchDescriptor<RLTrip>()).first)
    #expect(trip.accommodations.map(\.name) == ["Inn"])
  }

  @Test("deleting through a base-class reference applies the real class's rules (cascade)")
  func baseReferenceAppliesSubclassCascade() throws {
    let container = try makeRelationshipTripContainer()
    let context = ModelContext(container)
    let business = makeBusinessTrip("Summit")
    context.insert(business)
    business.expenses = [RLExpense(amount: 10)]
    try context.save()

    let trip = try #require(try context.fetch(FetchDescriptor<RLTrip>()).first)
    context.delete(trip)
    try context.save()
    #expect(try storedTripCounts(container) == [0, 0, 0, 0, 0, 0, 0])
  }

  @Test("deleting through a base-class reference applies the real class's rules (deny)")
  func baseReferenceAppliesSubclassDeny() throws {
    let container = try makeRelationshipTripContainer()
    let context = ModelContext(container)
    let personal = makePersonalTrip("Beach")
    context.insert(personal)
    personal.visas = [RLVisa(country: "NZ")]
    personal.accommodations = [RLCampsite(name: "Dunes")]
    try context.save()

    let trip: RLTrip = try #require(
      try ModelContext(container).fetch(FetchDescriptor<RLTrip>()).first)
    let tripContext = try #require(trip.modelContext)
    tripContext.delete(trip)
    let error = try #require(throws: ModelError.self) { try tripContext.save() }
    #expect(error.violations.map { "\($0.entity).\($0.property)" } == ["RLPersonalTrip.visas"])
    #expect(try storedTripCounts(container) == [1, 1, 0, 0, 0, 0, 1])
  }

  @Test("deleting through a to-many of base-class accommodations cascades a hotel's rooms")
  func cascadeReachesSubclassRules() throws {
    let container = try makeRelationshipTripContainer()
    let context = ModelContext(container)
    let trip = RLTrip(name: "Tour")
    context.insert(trip)
    trip.accommodations = [makeHotel("Grand", rooms: 2)]
    try context.save()

    let accommodation = try #require(trip.accommodations.first)
    context.delete(accommodation)
    #expect(trip.accommodations.isEmpty)
    try context.save()
    #expect(try storedTripCounts(container) == [1, 0, 0, 0, 0, 0, 0])
  }

  @Test("cascades reach objects inserted in the same change set")
  func cascadeOverUnsavedObjects() throws {
    let container = try makeRelationshipTripContainer()
    let context = ModelContext(container)
    let trip = makeBusinessTrip("Summit")
    context.insert(trip)
    try context.save()

    trip.accommodations = [makeHotel("Grand", rooms: 2)]
    let room = try #require((trip.accommodations.first as? RLHotel)?.rooms.first)
    context.delete(trip)
    #expect(room.isDeleted)
    #expect(context.insertedModelsArray.isEmpty)
    try context.save()
    #expect(try storedTripCounts(container) == [0, 0, 0, 0, 0, 0, 0])
  }
}
