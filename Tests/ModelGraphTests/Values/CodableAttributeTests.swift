import Foundation
import ModelGraph
import Testing

@Suite("Codable, dictionary and set attributes as written")
struct CodableAttributeTests {
  @Test("every value reads back before insertion, after insertion and from a fresh context")
  func roundTrip() throws {
    let container = try makeInMemoryContainer(CAItem.self)
    let context = ModelContext(container)
    let item = makeFilledItem()
    #expect(isFilled(item))
    context.insert(item)
    #expect(isFilled(item))
    try context.save()
    #expect(isFilled(item))
    let fetched = try #require(try ModelContext(container).fetch(FetchDescriptor<CAItem>()).first)
    #expect(isFilled(fetched))
  }

  @Test("unset optionals read nil and declared initial values are saved")
  func defaults() throws {
    let container = try makeInMemoryContainer(CAItem.self)
    let context = ModelContext(container)
    let item = CAItem("plain")
    #expect(item.optionalPayment == nil && item.forecast == nil && item.history.isEmpty)
    context.insert(item)
    try context.save()
    let fetched = try #require(try ModelContext(container).fetch(FetchDescriptor<CAItem>()).first)
    #expect(fetched.optionalPayment == nil && fetched.forecast == nil)
    #expect(fetched.history.isEmpty && fetched.places.isEmpty && fetched.labels.isEmpty)
    #expect(fetched.payment == .cash && fetched.status == .draft)
  }

  @Test("changed values, including back to nil, are saved")
  func changes() throws {
    let container = try makeInMemoryContainer(CAItem.self)
    let context = ModelContext(container)
    let item = makeFilledItem()
    context.insert(item)
    try context.save()
    item.labels["color"] = "blue"
    item.tags.insert("c")
    item.payment = .transfer("X", amount: 1)
    item.optionalPayment = nil
    item.forecast = nil
    try context.save()
    let fetched = try #require(try ModelContext(container).fetch(FetchDescriptor<CAItem>()).first)
    #expect(fetched.labels["color"] == "blue")
    #expect(fetched.tags == ["a", "b", "c", "ü"])
    #expect(fetched.payment == .transfer("X", amount: 1))
    #expect(fetched.optionalPayment == nil && fetched.forecast == nil)
  }

  @Test("a rollback restores a value of an object that was never saved")
  func rollbackUnsaved() throws {
    let context = try makeInMemoryContext(CAItem.self)
    let item = makeFilledItem()
    context.insert(item)
    context.rollback()
    #expect(isFilled(item))
  }

  @Test("the schema stores sets as arrays and other Codable types as composites")
  func schema() throws {
    let container = try makeInMemoryContainer(CAItem.self)
    let entity = try #require(container.store.catalog.entity(named: "CAItem"))
    let types = Dictionary(uniqueKeysWithValues: entity.attributes.map { ($0.name, $0.valueType) })
    #expect(types["tags"] == .array(.string))
    #expect(types["numbers"] == .array(.int))
    #expect(types["labels"] == .composite("Dictionary<String, String>"))
    #expect(types["payment"] == .composite("CAPayment"))
    #expect(types["optionalPayment"] == .composite("CAPayment"))
    #expect(entity.attributes.first { $0.name == "optionalPayment" }?.isOptional == true)
    #expect(entity.attributes.first { $0.name == "payment" }?.isOptional == false)
  }

  @Test("values survive a snapshot and a reopen")
  func snapshot() throws {
    let scratch = try SnapshotScratch()
    do {
      let container = try ModelContainer(
        for: CAItem.self, configurations: ModelConfiguration(url: scratch.store))
      let context = ModelContext(container)
      context.insert(makeFilledItem())
      context.insert(CAItem("plain"))
      try context.save()
      try container.snapshot()
    }
    let container = try ModelContainer(
      for: CAItem.self, configurations: ModelConfiguration(url: scratch.store))
    let items = try ModelContext(container).fetch(
      FetchDescriptor<CAItem>(sortBy: [SortDescriptor(\.name)]))
    #expect(items.map(\.name) == ["filled", "plain"])
    #expect(isFilled(items[0]))
    #expect(items[1].optionalPayment == nil && items[1].tags.isEmpty)
  }

  @Test("inserted and changed values survive the journal: reopened without a snapshot")
  func journal() throws {
    let scratch = try SnapshotScratch()
    do {
      let container = try ModelContainer(
        for: CAItem.self, configurations: ModelConfiguration(url: scratch.store))
      let context = ModelContext(container)
      let changed = makeFilledItem("changed")
      context.insert(makeFilledItem())
      context.insert(changed)
      try context.save()
      changed.labels["color"] = "blue"
      changed.numbers.remove(.max)
      changed.payment = .transfer("X", amount: 1)
      changed.optionalPayment = nil
      changed.forecast = [3: rainy]
      try context.save()
    }
    let container = try ModelContainer(
      for: CAItem.self, configurations: ModelConfiguration(url: scratch.store))
    #expect(container.recoveryReport.replayedRecords == 2)
    let items = try ModelContext(container).fetch(
      FetchDescriptor<CAItem>(sortBy: [SortDescriptor(\.name)]))
    #expect(items.map(\.name) == ["changed", "filled"])
    #expect(isFilled(items[1]))
    #expect(items[0].labels["color"] == "blue")
    #expect(items[0].numbers == [1, 2, 3])
    #expect(items[0].payment == .transfer("X", amount: 1))
    #expect(items[0].optionalPayment == nil)
    #expect(items[0].forecast == [3: rainy])
    #expect(items[0].places == [sunny, rainy] && items[0].history == [.cash, card])
  }
}
