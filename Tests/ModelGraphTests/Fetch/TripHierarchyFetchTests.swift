import ModelGraph
import Testing

/// A fetch over the trip hierarchy and the names it must return.
enum TripFetchCase: String, CaseIterable, Sendable {
  case deepTrip
  case exactTrip
  case deepBusiness
  case exactBusiness
  case deepPersonal

  var expectedNames: [String] {
    switch self {
    case .deepTrip: ["business-1", "business-2", "personal-1", "personal-2", "trip-1", "trip-2"]
    case .exactTrip: ["trip-1", "trip-2"]
    case .deepBusiness, .exactBusiness: ["business-1", "business-2"]
    case .deepPersonal: ["personal-1", "personal-2"]
    }
  }

  func fetch(_ context: ModelContext) throws -> (objects: [Trip], count: Int) {
    switch self {
    case .deepTrip: try Self.run(Trip.self, includesSubclasses: true, context)
    case .exactTrip: try Self.run(Trip.self, includesSubclasses: false, context)
    case .deepBusiness: try Self.run(BusinessTrip.self, includesSubclasses: true, context)
    case .exactBusiness: try Self.run(BusinessTrip.self, includesSubclasses: false, context)
    case .deepPersonal: try Self.run(PersonalTrip.self, includesSubclasses: true, context)
    }
  }

  private static func run<T: Trip>(_: T.Type, includesSubclasses: Bool, _ context: ModelContext)
    throws -> (objects: [Trip], count: Int)
  {
    var descriptor = FetchDescriptor<T>(sortBy: [SortDescriptor(\.name)])
    descriptor.includesSubclasses = includesSubclasses
    return (try context.fetch(descriptor), try context.fetchCount(descriptor))
  }
}

/// The class each seeded trip must come back as, from its name.
private func expectedClassName(of name: String) -> String {
  if name.hasPrefix("business") { return "BusinessTrip" }
  if name.hasPrefix("personal") { return "PersonalTrip" }
  return "Trip"
}

private func seedTrips(_ context: ModelContext) {
  context.insert(PersonalTrip(name: "personal-1", reason: .vacation, companions: ["Ann"]))
  context.insert(Trip(name: "trip-1"))
  context.insert(BusinessTrip(name: "business-1", company: "Acme"))
  context.insert(Trip(name: "trip-2"))
  context.insert(BusinessTrip(name: "business-2", company: "Globex"))
  context.insert(PersonalTrip(name: "personal-2", reason: .family))
}

@Suite("Deep, shallow and exact fetches over Trip, BusinessTrip and PersonalTrip")
struct TripHierarchyFetchTests {
  @Test(
    "saved objects come back from the right classes, each as its own class",
    arguments: TripFetchCase.allCases)
  func savedObjects(fetchCase: TripFetchCase) throws {
    let container = try makeInMemoryContainer(Trip.self)
    let writer = ModelContext(container)
    seedTrips(writer)
    try writer.save()

    let (objects, count) = try fetchCase.fetch(ModelContext(container))
    #expect(objects.map(\.name) == fetchCase.expectedNames)
    #expect(count == fetchCase.expectedNames.count)
    for object in objects {
      #expect(String(describing: type(of: object)) == expectedClassName(of: object.name))
    }
  }

  @Test(
    "pending inserts are fetched the same way before the save",
    arguments: TripFetchCase.allCases)
  func pendingObjects(fetchCase: TripFetchCase) throws {
    let context = try makeTripContext()
    seedTrips(context)
    let (objects, count) = try fetchCase.fetch(context)
    #expect(objects.map(\.name) == fetchCase.expectedNames)
    #expect(count == fetchCase.expectedNames.count)
  }

  @Test("subclass attributes are readable through a deep fetch of the base class")
  func subclassAttributes() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let writer = ModelContext(container)
    seedTrips(writer)
    try writer.save()

    let trips = try ModelContext(container).fetch(
      FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
    let companies = trips.compactMap { ($0 as? BusinessTrip)?.company }
    let reasons = trips.compactMap { ($0 as? PersonalTrip)?.reason }
    #expect(companies == ["Acme", "Globex"])
    #expect(reasons == [.vacation, .family])
    #expect((trips.first { $0.name == "personal-1" } as? PersonalTrip)?.companions == ["Ann"])
  }

  @Test("listing the subclasses in the container changes nothing")
  func listedSubclasses() throws {
    let container = try makeInMemoryContainer(Trip.self, BusinessTrip.self, PersonalTrip.self)
    let context = ModelContext(container)
    #expect(try context.fetchCount(FetchDescriptor<BusinessTrip>()) == 0)
    seedTrips(context)
    try context.save()
    let (objects, _) = try TripFetchCase.deepTrip.fetch(ModelContext(container))
    #expect(objects.map(\.name) == TripFetchCase.deepTrip.expectedNames)
  }

  @Test("a subclass whose first use is a fetch is registered and fetched")
  func subclassFirstUsedByFetch() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let writer = ModelContext(container)
    writer.insert(Trip(name: "trip-1"))
    try writer.save()

    let context = ModelContext(container)
    #expect(try context.fetch(FetchDescriptor<BusinessTrip>()).isEmpty)
    #expect(try context.fetchCount(FetchDescriptor<PersonalTrip>()) == 0)
    #expect(try context.fetch(FetchDescriptor<Trip>()).map(\.name) == ["trip-1"])
  }

  @Test(
    "a subclass first used by a fetch while changes are pending is fetched")
  func subclassFirstUsedWithPendingChanges() throws {
    let context = try makeTripContext()
    context.insert(Trip(name: "trip-1"))
    #expect(try context.fetch(FetchDescriptor<BusinessTrip>()).isEmpty)
    context.insert(BusinessTrip(name: "business-1", company: "Acme"))
    #expect(try context.fetch(FetchDescriptor<BusinessTrip>()).map(\.name) == ["business-1"])
    #expect(try context.fetch(FetchDescriptor<Trip>()).count == 2)
  }
}
