import ModelGraph
import Testing

/// `storeWins` drops only the colliding values: an attribute no other save changed keeps this
/// context's value when its relationships collide (found by the model-based fuzz, seed 198).
@Suite("Concurrency: storeWins keeps the attributes that do not collide")
struct StoreWinsAttributeTests {
  /// Owners a, b and c and an item labelled "tin can" with neither owner nor keeper, saved.
  static func fixture() throws -> ModelContainer {
    let container = try makeInMemoryContainer(MBOwner.self, MBVIPOwner.self, MBItem.self)
    let setup = ModelContext(container)
    for (serial, code) in ["a", "b", "c"].enumerated() {
      setup.insert(MBOwner(serial: serial, code: code, name: code, score: 1))
    }
    setup.insert(MBItem(serial: 9, label: "tin can", weight: 3))
    try setup.save()
    return container
  }

  static func owner(_ code: String, in context: ModelContext) throws -> MBOwner {
    try #require(
      try context.fetch(FetchDescriptor<MBOwner>(predicate: #Predicate { $0.code == code })).first)
  }

  static func item(in context: ModelContext) throws -> MBItem {
    try #require(try context.fetch(FetchDescriptor<MBItem>()).first)
  }

  @Test("both relationships collide, the label does not: the label is this context's")
  func labelSurvivesRelationshipConflicts() throws {
    let container = try Self.fixture()
    let mine = ModelContext(container)
    mine.mergePolicy = .storeWins
    let other = ModelContext(container)

    let myItem = try Self.item(in: mine)
    myItem.owner = try Self.owner("b", in: mine)
    myItem.label = "green pen"
    let otherItem = try Self.item(in: other)
    try Self.owner("c", in: other).kept.append(otherItem)
    otherItem.owner = try Self.owner("a", in: other)
    myItem.keeper = try Self.owner("b", in: mine)
    try other.save()
    myItem.owner = nil
    myItem.label = "red box"
    try mine.save()

    let saved = try Self.item(in: ModelContext(container))
    #expect(saved.label == "red box")
    #expect(saved.owner?.code == "a")
    #expect(saved.keeper?.code == "c")
  }

  /// `serial` is attribute slot 0 and `owner` relationship slot 0: a resolution of one must
  /// not settle the other.
  @Test("store wins the attribute, mine the relationship of the same slot number")
  func attributeAndRelationshipSettledApart() throws {
    let container = try Self.fixture()
    let mine = ModelContext(container)
    mine.mergePolicy = .custom { $0.kind == .attribute ? .keepStore : .keepMine }
    let other = ModelContext(container)

    let myItem = try Self.item(in: mine)
    myItem.serial = 1
    myItem.owner = try Self.owner("b", in: mine)
    let otherItem = try Self.item(in: other)
    otherItem.serial = 2
    otherItem.owner = try Self.owner("a", in: other)
    try other.save()
    try mine.save()

    let saved = try Self.item(in: ModelContext(container))
    #expect(saved.serial == 2)
    #expect(saved.owner?.code == "b")
    let owners = try ModelContext(container).fetch(
      FetchDescriptor<MBOwner>(sortBy: [SortDescriptor(\.code)]))
    #expect(owners.map { $0.items.count } == [0, 1, 0])
  }
}
