import ModelGraph
import Testing

@Suite("Unique attributes")
struct RelationshipUniqueTests {
  @Test("two new objects with the same value in one save both fail it, and nothing is applied")
  func duplicateWithinOneSave() throws {
    let container = try makeInMemoryContainer(RLAccount.self)
    let context = ModelContext(container)
    let first = RLAccount(email: "a@x.org", name: "First")
    let second = RLAccount(email: "a@x.org", name: "Second")
    let other = RLAccount(email: "b@x.org", name: "Other")
    context.insert(first)
    context.insert(second)
    context.insert(other)
    let version = container.store.version.number

    let error = try #require(throws: ModelError.self) { try context.save() }
    #expect(error.code == .validationFailed)
    #expect(error.violations.allSatisfy { $0.entity == "RLAccount" && $0.property == "email" })
    #expect(
      Set(error.violations.compactMap(\.identifier)) == [
        first.persistentModelID, second.persistentModelID,
      ])
    #expect(error.violations.count == 2)
    #expect(error.description.contains("RLAccount.email"))
    #expect(container.store.version.number == version)
    #expect(try ModelContext(container).fetchCount(FetchDescriptor<RLAccount>()) == 0)
    #expect(context.insertedModelsArray.count == 3)

    second.email = "c@x.org"
    try context.save()
    #expect(try ModelContext(container).fetchCount(FetchDescriptor<RLAccount>()) == 3)
  }

  @Test("a new object duplicating a stored one fails the save, naming the new object only")
  func duplicateAgainstStore() throws {
    let container = try makeInMemoryContainer(RLAccount.self)
    let context = ModelContext(container)
    context.insert(RLAccount(email: "a@x.org", name: "Stored"))
    try context.save()

    let later = ModelContext(container)
    let duplicate = RLAccount(email: "a@x.org", name: "Duplicate")
    later.insert(duplicate)
    later.insert(RLAccount(email: "d@x.org", name: "Fine"))
    let error = try #require(throws: ModelError.self) { try later.save() }
    #expect(error.violations.count == 1)
    let violation = try #require(error.violations.first)
    #expect(violation.entity == "RLAccount")
    #expect(violation.property == "email")
    #expect(violation.identifier == duplicate.persistentModelID)
    #expect(violation.rule.contains("a@x.org"))
    let stored = try ModelContext(container).fetch(FetchDescriptor<RLAccount>())
    #expect(stored.map(\.name) == ["Stored"])
  }

  @Test("changing a stored object to another's value fails; changing it back succeeds")
  func duplicateByUpdate() throws {
    let container = try makeInMemoryContainer(RLAccount.self)
    let context = ModelContext(container)
    let ann = RLAccount(email: "ann@x.org", name: "Ann")
    let bo = RLAccount(email: "bo@x.org", name: "Bo")
    context.insert(ann)
    context.insert(bo)
    try context.save()

    bo.email = "ann@x.org"
    bo.name = "Bob"
    let error = try #require(throws: ModelError.self) { try context.save() }
    #expect(error.violations.map(\.identifier) == [bo.persistentModelID])
    let stored = try ModelContext(container).fetch(
      FetchDescriptor<RLAccount>(sortBy: [SortDescriptor(\.name)]))
    #expect(stored.map(\.name) == ["Ann", "Bo"])

    bo.email = "bob@x.org"
    try context.save()
    #expect(
      try ModelContext(container).fetch(
        FetchDescriptor<RLAccount>(sortBy: [SortDescriptor(\.name)])
      )
      .map(\.email) == ["ann@x.org", "bob@x.org"])
  }

  @Test("uniqueness spans the class hierarchy")
  func acrossSubclasses() throws {
    let context = try makeInMemoryContext(RLAccount.self)
    context.insert(RLAccount(email: "a@x.org", name: "User"))
    try context.save()
    let admin = RLAdministrator(email: "a@x.org", name: "Admin")
    context.insert(admin)
    let error = try #require(throws: ModelError.self) { try context.save() }
    #expect(error.violations.map(\.entity) == ["RLAdministrator"])
    #expect(error.violations.map(\.property) == ["email"])
  }

  @Test("swapping two values, or reusing the value of an object deleted in the same save, passes")
  func swapsAndReuse() throws {
    let container = try makeInMemoryContainer(RLAccount.self)
    let context = ModelContext(container)
    let ann = RLAccount(email: "ann@x.org", name: "Ann")
    let bo = RLAccount(email: "bo@x.org", name: "Bo")
    context.insert(ann)
    context.insert(bo)
    try context.save()

    ann.email = "bo@x.org"
    bo.email = "ann@x.org"
    try context.save()
    context.delete(ann)
    context.insert(RLAccount(email: "bo@x.org", name: "Cy"))
    try context.save()
    let stored = try ModelContext(container).fetch(
      FetchDescriptor<RLAccount>(sortBy: [SortDescriptor(\.name)]))
    #expect(stored.map { "\($0.name) \($0.email)" } == ["Bo ann@x.org", "Cy bo@x.org"])
  }

  @Test("nil values of an optional unique attribute never conflict")
  func nilsDoNotConflict() throws {
    let context = try makeInMemoryContext(RLAccount.self)
    context.insert(RLAccount(email: "a@x.org", name: "A"))
    context.insert(RLAccount(email: "b@x.org", name: "B"))
    context.insert(RLAccount(email: "c@x.org", name: "C", handle: "cc"))
    try context.save()
    context.insert(RLAccount(email: "d@x.org", name: "D", handle: "cc"))
    let error = try #require(throws: ModelError.self) { try context.save() }
    #expect(error.violations.map(\.property) == ["handle"])
  }
}

@Suite("Unique attributes never set")
struct RelationshipUnsetUniqueTests {
  @Test("unique attributes never set are reported as missing, not as duplicates")
  func unsetIsNotDuplicate() throws {
    let context = try makeInMemoryContext(RLAccount.self)
    let first = RLAccount()
    first.name = "First"
    let second = RLAccount()
    second.name = "Second"
    context.insert(first)
    context.insert(second)
    let error = try #require(throws: ModelError.self) { try context.save() }
    #expect(error.violations.count == 2, "\(error)")
    #expect(error.violations.allSatisfy { $0.property == "email" })
    #expect(error.violations.allSatisfy { !$0.rule.contains("unique") }, "\(error)")
  }
}
