import ModelGraph
import Testing

class IVItem: PersistentModel {
  @Attribute var name: String
  @Attribute var note: String? = "default"
  @Attribute var count = 3
  @Attribute var tags: [String] = ["new"]
}

private func fetchOnly(_ container: ModelContainer) throws -> IVItem {
  let items = try ModelContext(container).fetch(FetchDescriptor<IVItem>())
  try #require(items.count == 1)
  return items[0]
}

@Suite("Declared initial values")
struct InitialValueTests {
  @Test("initial values are read before insert and saved when never set")
  func untouched() throws {
    let container = try makeInMemoryContainer(IVItem.self)
    let context = ModelContext(container)
    let item = IVItem()
    item.name = "a"
    #expect(item.note == "default")
    #expect(item.count == 3)
    #expect(item.tags == ["new"])
    context.insert(item)
    #expect(item.note == "default")
    try context.save()
    let fetched = try fetchOnly(container)
    #expect(fetched.note == "default")
    #expect(fetched.count == 3)
    #expect(fetched.tags == ["new"])
  }

  @Test("values set before insert replace the initial values, nil included")
  func overriddenBeforeInsert() throws {
    let container = try makeInMemoryContainer(IVItem.self)
    let context = ModelContext(container)
    let item = IVItem()
    item.name = "a"
    item.note = nil
    item.count = 0
    item.tags = []
    #expect(item.note == nil)
    context.insert(item)
    #expect(item.note == nil)
    #expect(item.count == 0)
    try context.save()
    let fetched = try fetchOnly(container)
    #expect(fetched.note == nil)
    #expect(fetched.count == 0)
    #expect(fetched.tags.isEmpty)
  }

  @Test("each new object starts from the initial values, not another object's")
  func independentObjects() throws {
    let first = IVItem()
    first.count = 10
    first.tags.append("x")
    let second = IVItem()
    #expect(second.count == 3)
    #expect(second.tags == ["new"])
    #expect(first.tags == ["new", "x"])
  }

  @Test("an object un-inserted by rollback keeps nil and changed values, not the initial ones")
  func rollbackKeepsOverrides() throws {
    let container = try makeInMemoryContainer(IVItem.self)
    let context = ModelContext(container)
    let item = IVItem()
    item.name = "a"
    context.insert(item)
    item.note = nil
    item.count = 7
    context.rollback()
    #expect(item.note == nil)
    #expect(item.count == 7)
    context.insert(item)
    try context.save()
    let fetched = try fetchOnly(container)
    #expect(fetched.note == nil)
    #expect(fetched.count == 7)
  }
}
