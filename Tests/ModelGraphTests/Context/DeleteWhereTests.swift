import ModelGraph
import Testing

private func seed(_ context: ModelContext) throws {
  context.insert(Trip(name: "plain-a"))
  context.insert(Trip(name: "plain-b"))
  context.insert(BusinessTrip(name: "biz-a", company: "Acme"))
  context.insert(BusinessTrip(name: "biz-b", company: "Globex"))
  context.insert(PersonalTrip(name: "pers-a", reason: .vacation))
  try context.save()
}

private func remainingNames(_ container: ModelContainer) throws -> [String] {
  try ModelContext(container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
    .map(\.name)
}

@Suite("delete(model:where:includeSubclasses:)")
struct DeleteWhereTests {
  @Test(
    "without a predicate, a base class deletes its whole hierarchy")
  func deleteAll() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let context = ModelContext(container)
    try seed(context)
    try context.delete(model: Trip.self)
    #expect(context.deletedModelsArray.count == 5)
    #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 0)
    try context.save()
    #expect(try remainingNames(container).isEmpty)
  }

  @Test("includeSubclasses false deletes only objects of exactly the class")
  func exactClass() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let context = ModelContext(container)
    try seed(context)
    try context.delete(model: Trip.self, includeSubclasses: false)
    try context.save()
    #expect(try remainingNames(container) == ["biz-a", "biz-b", "pers-a"])
  }

  @Test("a predicate limits the deletion, in the class and its subclasses")
  func withPredicate() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let context = ModelContext(container)
    try seed(context)
    try context.delete(
      model: Trip.self, where: #Predicate { !$0.name.starts(with: "plain") && $0.name != "biz-b" })
    try context.save()
    #expect(try remainingNames(container) == ["biz-b", "plain-a", "plain-b"])
  }

  @Test("a subclass with a predicate on its own attribute")
  func subclassPredicate() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let context = ModelContext(container)
    try seed(context)
    try context.delete(model: BusinessTrip.self, where: #Predicate { $0.company == "Acme" })
    try context.save()
    #expect(try remainingNames(container) == ["biz-b", "pers-a", "plain-a", "plain-b"])
  }

  @Test(
    "objects with and without handles, saved or not, are all deleted and listed")
  func handlesAndKeys() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let context = ModelContext(container)
    try seed(context)
    let reader = ModelContext(container)
    let held = try #require(
      try reader.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "biz-a" })).first)
    let unsaved = BusinessTrip(name: "biz-new", company: "Initech")
    reader.insert(unsaved)
    try reader.delete(model: BusinessTrip.self)
    #expect(held.isDeleted && unsaved.isDeleted)
    let saved = Set(try context.fetch(FetchDescriptor<BusinessTrip>()).map(\.persistentModelID))
    #expect(saved.count == 2)
    #expect(Set(reader.deletedModelsArray.map(\.persistentModelID)) == saved)
    #expect(try reader.fetchCount(FetchDescriptor<BusinessTrip>()) == 0)
    try reader.save()
    #expect(try remainingNames(container) == ["pers-a", "plain-a", "plain-b"])
  }

  @Test("the deletion is pending until the save and can be rolled back")
  func pendingUntilSave() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let context = ModelContext(container)
    try seed(context)
    try context.delete(model: PersonalTrip.self)
    #expect(try remainingNames(container).count == 5)
    context.rollback()
    try context.save()
    #expect(try remainingNames(container).count == 5)
    #expect(try context.fetchCount(FetchDescriptor<PersonalTrip>()) == 1)
  }
}
