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

  /// Enough rows of each class that the identity map keeps them in pages by row, several pages
  /// each, so handles come and go both in pages that keep others and in pages they empty.
  @Test("over many rows of three classes: kept handles come back, dropped ones are made anew")
  func manyRowsKeptAndDropped() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let writer = ModelContext(container)
    let perClass = 2_500
    for index in 0..<perClass {
      writer.insert(Trip(name: "T\(index)"))
      writer.insert(BusinessTrip(name: "B\(index)", company: "C\(index)"))
      writer.insert(PersonalTrip(name: "P\(index)", reason: .family))
    }
    try writer.save()

    let context = ModelContext(container)
    var all = try context.fetch(FetchDescriptor<Trip>())
    #expect(all.count == 3 * perClass)
    // Keep every third object, and a run of rows longer than a page.
    let keptIndices = all.indices.filter { $0 % 3 == 0 || (1_000..<2_100).contains($0) }
    var kept: [PersistentIdentifier: ObjectIdentifier] = [:]
    var keptObjects: [Trip] = []
    for index in keptIndices {
      kept[all[index].persistentModelID] = ObjectIdentifier(all[index])
      keptObjects.append(all[index])
    }
    let droppedIdentifier = all[1].persistentModelID
    all = []
    #expect(context.registeredModel(for: droppedIdentifier) as Trip? == nil)

    let again = try context.fetch(FetchDescriptor<Trip>())
    #expect(again.count == 3 * perClass)
    var names = Set<String>()
    for trip in again {
      names.insert(trip.name)
      if let identity = kept[trip.persistentModelID] {
        #expect(ObjectIdentifier(trip) == identity)
      }
      switch trip.name.first {
      case "B": #expect((trip as? BusinessTrip)?.company == "C" + trip.name.dropFirst())
      case "P": #expect((trip as? PersonalTrip)?.reason == .family)
      default: #expect(type(of: trip) == Trip.self)
      }
    }
    #expect(names.count == 3 * perClass)
    #expect(context.registeredModel(for: droppedIdentifier) as Trip? != nil)

    // A deleted object leaves: after the save no fetch returns it, and the others stay.
    let doomed = keptObjects[5]
    let doomedIdentifier = doomed.persistentModelID
    context.delete(doomed)
    try context.save()
    #expect(context.model(for: doomedIdentifier) == nil)
    let afterDelete = try context.fetch(FetchDescriptor<Trip>())
    #expect(afterDelete.count == 3 * perClass - 1)
    #expect(!afterDelete.contains { $0 === doomed })
    #expect(afterDelete.contains { $0 === keptObjects[6] })

    // A rollback of a change keeps the same object, reading the saved value again.
    let changed = keptObjects[7]
    let savedName = changed.name
    changed.name = "Changed"
    context.rollback()
    #expect(changed.name == savedName)
    #expect(try context.fetch(FetchDescriptor<Trip>()).contains { $0 === changed })
  }
}
