import ModelGraph
import Testing

class SEBase: PersistentModel {
  @Attribute var name: String
}

/// The SwiftData pitfall: a subclass property without a wrapper.
class SEUnmarkedSub: SEBase {
  @Attribute var fine: Int
  var note = ""
}

class SEUnmarkedGrandchild: SEUnmarkedSub {
  @Attribute var more: Int
}

class SEUnmarkedRoot: PersistentModel {
  @Attribute var name: String
  let tag = 1
}

class SEDuplicateSub: SEPrivateBase {
  @Attribute var code: Int
}

class SEUnsupported: PersistentModel {
  @Attribute var values: [Int?]
}

/// Everything that is allowed next to persisted properties.
class SEAccepted: PersistentModel {
  @Attribute var count: Int
  @Transient var cache: [String: Int] = [:]
  @Transient var scratch: NSObject? = nil
  lazy var doubled: Int = count * 2
  var computed: Int { count + 1 }
}

class SEAcceptedSub: SEAccepted {
  @Transient var more = 0
  var alsoComputed: String { "\(count)" }
}

private func containerError(_ types: any PersistentModel.Type...) throws -> SchemaError {
  try #require(throws: SchemaError.self) {
    _ = try ModelContainer(
      for: types, configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
  }
}

@Suite("Schema errors at container creation")
struct SchemaErrorTests {
  @Test("a subclass stored property without a wrapper names class and property")
  func unmarkedSubclassProperty() throws {
    let error = try containerError(SEBase.self, SEUnmarkedSub.self)
    #expect(error.code == .unmarkedStoredProperty)
    #expect(error.entity == "SEUnmarkedSub")
    #expect(error.property == "note")
    #expect(error.description.hasPrefix("SEUnmarkedSub.note"))
  }

  @Test("the problem is found when only the subclass is listed, and in its subclasses")
  func unmarkedFoundThroughDescendants() throws {
    let alone = try containerError(SEUnmarkedSub.self)
    #expect(alone.code == .unmarkedStoredProperty)
    #expect(alone.property == "note")
    let grandchild = try containerError(SEBase.self, SEUnmarkedGrandchild.self)
    #expect(grandchild.code == .unmarkedStoredProperty)
    #expect(grandchild.entity == "SEUnmarkedSub")
    #expect(grandchild.property == "note")
  }

  @Test("a root class stored property without a wrapper is an error too")
  func unmarkedRootProperty() throws {
    let error = try containerError(SEUnmarkedRoot.self)
    #expect(error.code == .unmarkedStoredProperty)
    #expect(error.entity == "SEUnmarkedRoot")
    #expect(error.property == "tag")
  }

  @Test("a property name declared twice in one hierarchy names class and property")
  func duplicateProperty() throws {
    let error = try containerError(SEPrivateBase.self, SEDuplicateSub.self)
    #expect(error.code == .duplicateProperty)
    #expect(error.entity == "SEDuplicateSub")
    #expect(error.property == "code")
  }

  @Test("an attribute type with no storage mapping names class and property")
  func unsupportedType() throws {
    let error = try containerError(SEUnsupported.self)
    #expect(error.code == .unsupportedType)
    #expect(error.entity == "SEUnsupported")
    #expect(error.property == "values")
  }

  @Test("transient, lazy and computed properties are accepted and not persisted")
  func acceptedDeclarations() throws {
    let container = try makeInMemoryContainer(SEAccepted.self, SEAcceptedSub.self)
    let context = ModelContext(container)
    let object = SEAcceptedSub()
    object.count = 4
    object.more = 9
    object.cache["x"] = 1
    context.insert(object)
    try context.save()
    let fetched = try #require(
      try ModelContext(container).fetch(FetchDescriptor<SEAccepted>()).first)
    #expect(fetched.count == 4)
    #expect(fetched.computed == 5)
    #expect(fetched.doubled == 8)
    #expect(fetched.cache.isEmpty)
    #expect((fetched as? SEAcceptedSub)?.more == 0)
    let entity = try #require(container.store.catalog.entity(named: "SEAcceptedSub"))
    #expect(entity.attributes.map(\.name) == ["count"])
  }

  @Test("a valid base class still registers after a bad subclass was rejected elsewhere")
  func validBaseStillWorks() throws {
    _ = try containerError(SEBase.self, SEUnmarkedSub.self)
    let context = try makeInMemoryContext(SEBase.self)
    let object = SEBase()
    object.name = "ok"
    context.insert(object)
    try context.save()
    #expect(try context.fetch(FetchDescriptor<SEBase>()).map(\.name) == ["ok"])
  }
}
