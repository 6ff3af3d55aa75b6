import Foundation
import ModelGraph
import Testing

/// A fetch without a predicate or sort (every live object of the classes, class by class) gives
/// the objects a fetch with a predicate every object satisfies gives, in the same order, with
/// the context's unsaved inserts, deletes and changes.
@Suite("Fetch without a predicate or sort")
struct PlainFetchTests {
  /// Satisfied by every trip (every name is non-empty); the fetch then tests each row.
  static let everyTrip = #Predicate<Trip> { $0.name != "" }

  @Test(
    "a hierarchy with unsaved inserts, deletes and changes gives the objects in the same order",
    .disabled(if: testsRunOnPostgreSQL, "row order differs from a store that keeps every row"))
  func sameObjectsAsWithPredicate() throws {
    let context = try contextWithUnsavedChanges()
    let plain = try context.fetch(FetchDescriptor<Trip>())
    let tested = try context.fetch(FetchDescriptor<Trip>(predicate: Self.everyTrip))
    #expect(plain.count == 60 - 12 + 3)
    #expect(plain.count == tested.count)
    #expect(zip(plain, tested).allSatisfy { $0 === $1 })
    #expect(!plain.contains { $0.isDeleted })
    #expect(Set(plain.map(\.name)).count == plain.count)
    let subclass = try context.fetch(FetchDescriptor<BusinessTrip>())
    let testedSubclass = try context.fetch(
      FetchDescriptor<BusinessTrip>(predicate: #Predicate { $0.name != "" }))
    #expect(subclass.count == 20 - 4 + 1)
    #expect(subclass.map(\.name) == testedSubclass.map(\.name))
  }

  @Test(
    "objects made by the fetch carry the unsaved state of their rows",
    .disabled(if: testsRunOnPostgreSQL, "row order differs from a store that keeps every row"))
  func freshHandlesCarryUnsavedState() throws {
    let context = try contextWithUnsavedChanges()
    let trips = try context.fetch(FetchDescriptor<Trip>())
    for trip in trips {
      let isNew = trip.name.hasPrefix("new ")
      let isChanged = trip.name.hasSuffix(" changed")
      #expect(trip.hasChanges == (isNew || isChanged), "\(trip.name)")
      #expect(trip.modelContext === context)
    }
    #expect(trips.filter(\.hasChanges).count == 12 + 3)
  }

  @Test("in a fetch over classes with and without changes, only changed rows' objects have them")
  func changesOfOneClass() throws {
    for changedClass in [Trip.self, BusinessTrip.self, PersonalTrip.self] {
      let context = try freshContextWithSavedTrips(9)
      try rename(in: context) { type(of: $0) == changedClass }
      let trips = try context.fetch(FetchDescriptor<Trip>())
      #expect(trips.count == 9)
      let changed = trips.filter(\.hasChanges)
      #expect(changed.count == 1)
      #expect(changed.allSatisfy { type(of: $0) == changedClass && $0.name.hasSuffix(" changed") })
    }
  }

  @Test("counts of class after class, deep and shallow, take in the unsaved changes")
  func countsOfClassAfterClass() throws {
    let context = try contextWithUnsavedChanges()
    func count<T: Trip>(_: T.Type, deep: Bool) throws -> Int {
      var plain = FetchDescriptor<T>()
      plain.includesSubclasses = deep
      var tested = FetchDescriptor<T>(predicate: #Predicate { $0.name != "" })
      tested.includesSubclasses = deep
      let count = try context.fetchCount(plain)
      #expect(count == (try context.fetchCount(tested)), "\(T.self), deep: \(deep)")
      return count
    }
    // Each class had 20 saved trips, lost 4 and gained 1; classes alternate, as the context's
    // lookup of a class's entity must follow.
    for _ in 0..<2 {
      #expect(try count(Trip.self, deep: true) == 51)
      #expect(try count(BusinessTrip.self, deep: true) == 17)
      #expect(try count(Trip.self, deep: false) == 17)
      #expect(try count(PersonalTrip.self, deep: false) == 17)
      #expect(try count(PersonalTrip.self, deep: true) == 17)
    }
    try context.save()
    context.insert(BusinessTrip(name: "after the save", company: "c"))
    #expect(try count(Trip.self, deep: true) == 52)
    #expect(try count(Trip.self, deep: false) == 17)
    #expect(try count(BusinessTrip.self, deep: false) == 18)
  }

  @Test(
    "offsets and limits cut the same window",
    .disabled(if: testsRunOnPostgreSQL, "row order differs from a store that keeps every row"))
  func windows() throws {
    let context = try contextWithUnsavedChanges()
    for offset in [nil, 0, 1, 15, 16, 17, 50, 51, 60] {
      for limit in [nil, 0, 1, 2, 17, 40, 100] {
        var plain = FetchDescriptor<Trip>()
        plain.fetchOffset = offset
        plain.fetchLimit = limit
        var tested = FetchDescriptor<Trip>(predicate: Self.everyTrip)
        tested.fetchOffset = offset
        tested.fetchLimit = limit
        let names = try context.fetch(plain).map(\.name)
        #expect(names == (try context.fetch(tested).map(\.name)), "offset \(offset ?? -1)")
        #expect(try context.fetchCount(plain) == names.count)
      }
    }
  }

  @Test(
    "rows freed by saved deletes and reused by new objects give the new objects",
    .disabled(if: testsRunOnPostgreSQL, "a shared PostgreSQL store never reuses a row"))
  func reusedRows() throws {
    let context = try contextWithUnsavedChanges()
    try context.save()
    for trip in try context.fetch(FetchDescriptor<PersonalTrip>()).prefix(5) {
      context.delete(trip)
    }
    try context.save()
    context.insert(PersonalTrip(name: "reused", reason: .family))
    try context.save()
    let fresh = ModelContext(context.container)
    let plain = try fresh.fetch(FetchDescriptor<Trip>())
    let tested = try fresh.fetch(FetchDescriptor<Trip>(predicate: Self.everyTrip))
    #expect(plain.count == 51 - 5 + 1)
    #expect(zip(plain, tested).allSatisfy { $0 === $1 })
    #expect(plain.filter { $0.name == "reused" }.count == 1)
    #expect(!plain.contains { $0.hasChanges })
  }

  /// A context over 60 saved trips (a `Trip`, a `BusinessTrip` and a `PersonalTrip` in turn)
  /// with unsaved changes and no handle kept: 12 deleted, 12 renamed (" changed"), and one new
  /// object of each class.
  private func contextWithUnsavedChanges() throws -> ModelContext {
    let context = try freshContextWithSavedTrips(60)
    try changeWithoutKeepingHandles(context)
    return context
  }

  /// Deletes every fifth trip, renames the next one, and inserts one new trip of each class,
  /// keeping no handle.
  private func changeWithoutKeepingHandles(_ context: ModelContext) throws {
    let trips = try context.fetch(FetchDescriptor<Trip>(predicate: Self.everyTrip))
    for (index, trip) in trips.enumerated() {
      switch index % 5 {
      case 0: context.delete(trip)
      case 1: trip.name += " changed"
      default: break
      }
    }
    context.insert(Trip(name: "new plain"))
    context.insert(BusinessTrip(name: "new business", company: "new company"))
    context.insert(PersonalTrip(name: "new personal", reason: .vacation))
  }

  /// Renames the first trip of `context` that `isRenamed` accepts, keeping no handle.
  private func rename(in context: ModelContext, where isRenamed: (Trip) -> Bool) throws {
    let trip = try context.fetch(FetchDescriptor<Trip>(predicate: Self.everyTrip)).first(
      where: isRenamed)
    trip?.name += " changed"
  }
}
