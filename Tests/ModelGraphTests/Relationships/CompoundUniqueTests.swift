import Foundation
import ModelGraph
import Testing

@Suite("Compound unique constraints")
struct CompoundUniqueTests {
  @Test("the schema records each class's own constraints; a subclass inherits its parent's")
  func schemaRecordsConstraints() throws {
    let container = try makeInMemoryContainer(CUPerson.self, CUEmployee.self)
    let catalog = container.store.catalog
    let person = try #require(catalog.entity(named: "CUPerson"))
    let employee = try #require(catalog.entity(named: "CUEmployee"))
    #expect(person.description.uniqueConstraints == [["givenName", "familyName"]])
    #expect(employee.description.uniqueConstraints == [["city", "badge"]])
    #expect(employee.uniqueConstraints.count == 2)
    #expect(employee.uniqueConstraints[0].declaringEntity == person.index)
  }

  @Test("same first name alone is fine; the same pair in one save fails for both objects")
  func duplicatePairWithinOneSave() throws {
    let container = try makeInMemoryContainer(CUPerson.self)
    let context = ModelContext(container)
    let first = CUPerson("Ada", "Lovelace")
    let second = CUPerson("Ada", "Lovelace")
    context.insert(first)
    context.insert(second)
    context.insert(CUPerson("Ada", "Byron"))
    let error = try #require(throws: ModelError.self) { try context.save() }
    #expect(error.code == .validationFailed)
    #expect(error.violations.count == 2)
    #expect(
      error.violations.allSatisfy {
        $0.entity == "CUPerson" && $0.property == "givenName+familyName"
          && $0.rule.contains("Ada") && $0.rule.contains("Lovelace")
      })
    #expect(
      Set(error.violations.compactMap(\.identifier)) == [
        first.persistentModelID, second.persistentModelID,
      ])
    #expect(try ModelContext(container).fetchCount(FetchDescriptor<CUPerson>()) == 0)

    second.givenName = "Augusta"
    try context.save()
    #expect(try ModelContext(container).fetchCount(FetchDescriptor<CUPerson>()) == 3)
  }

  @Test("a subclass object conflicts with a stored base-class object, and an update can conflict")
  func conflictAcrossHierarchyAndByUpdate() throws {
    let container = try makeInMemoryContainer(CUPerson.self, CUEmployee.self)
    let context = ModelContext(container)
    context.insert(CUPerson("Grace", "Hopper"))
    let alan = CUPerson("Alan", "Turing")
    context.insert(alan)
    try context.save()

    let later = ModelContext(container)
    let employee = CUEmployee("Grace", "Hopper")
    later.insert(employee)
    let error = try #require(throws: ModelError.self) { try later.save() }
    #expect(error.violations.map(\.identifier) == [employee.persistentModelID])
    later.rollback()

    alan.familyName = "Hopper"
    alan.givenName = "Grace"
    let update = try #require(throws: ModelError.self) { try context.save() }
    #expect(update.violations.map(\.identifier) == [alan.persistentModelID])
    alan.givenName = "Alan"
    try context.save()
    let names = try ModelContext(container).fetch(
      FetchDescriptor<CUPerson>(sortBy: [SortDescriptor(\.givenName)])
    ).map { "\($0.givenName) \($0.familyName)" }
    #expect(names == ["Alan Hopper", "Grace Hopper"])
  }

  @Test("a nil in any attribute of a constraint never conflicts")
  func nilNeverConflicts() throws {
    let container = try makeInMemoryContainer(CUPerson.self, CUEmployee.self)
    let context = ModelContext(container)
    context.insert(CUEmployee("A", "One", city: "Oslo", badge: nil))
    context.insert(CUEmployee("B", "Two", city: "Oslo", badge: nil))
    context.insert(CUEmployee("C", "Three", city: nil, badge: 7))
    context.insert(CUEmployee("D", "Four", city: nil, badge: 7))
    try context.save()
    context.insert(CUEmployee("E", "Five", city: "Oslo", badge: 7))
    context.insert(CUEmployee("F", "Six", city: "Oslo", badge: 7))
    let error = try #require(throws: ModelError.self) { try context.save() }
    #expect(error.violations.count == 2)
    #expect(error.violations.allSatisfy { $0.property == "city+badge" })
  }

  @Test("the subclass's own constraint does not apply to base-class objects")
  func subclassConstraintScope() throws {
    let container = try makeInMemoryContainer(CUPerson.self, CUEmployee.self)
    let context = ModelContext(container)
    context.insert(CUPerson("A", "One", city: "Oslo", badge: 1))
    context.insert(CUPerson("B", "Two", city: "Oslo", badge: 1))
    context.insert(CUEmployee("C", "Three", city: "Oslo", badge: 1))
    try context.save()
    #expect(try ModelContext(container).fetchCount(FetchDescriptor<CUPerson>()) == 3)
  }

  @Test("a single-attribute .unique index declaration is enforced like @Attribute(.unique)")
  func singleAttributeIndexIsEnforced() throws {
    let container = try makeInMemoryContainer(CUCode.self)
    let context = ModelContext(container)
    context.insert(CUCode("X1"))
    try context.save()
    context.insert(CUCode("X1"))
    let error = try #require(throws: ModelError.self) { try context.save() }
    #expect(error.violations.map(\.property) == ["code"])
  }

  @Test("a constraint naming a computed property is a schema error naming the class")
  func constraintOnComputedPropertyIsASchemaError() throws {
    let error = try #require(throws: SchemaError.self) {
      try makeInMemoryContainer(CUBroken.self)
    }
    #expect(error.code == .invalidUniqueConstraint)
    #expect(error.entity == "CUBroken")
  }

  @Test("constraints survive a snapshot and are enforced after loading")
  func constraintsSurviveASnapshot() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "cu-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("people.mgs")
    do {
      let container = try ModelContainer(
        for: [CUPerson.self, CUEmployee.self], configurations: [ModelConfiguration(url: url)])
      let context = ModelContext(container)
      context.insert(CUPerson("Ada", "Lovelace"))
      try context.save()
      try container.snapshot()
    }
    let reopened = try ModelContainer(
      for: [CUPerson.self, CUEmployee.self], configurations: [ModelConfiguration(url: url)])
    let person = try #require(reopened.store.catalog.entity(named: "CUPerson"))
    #expect(person.description.uniqueConstraints == [["givenName", "familyName"]])
    let context = ModelContext(reopened)
    context.insert(CUPerson("Ada", "Lovelace"))
    #expect(throws: ModelError.self) { try context.save() }
  }

  @Test("under the upsert policy a new object matching a saved one on the pair updates it")
  func upsertOnCompoundConstraint() throws {
    let container = try makeInMemoryContainer(CUPerson.self)
    let context = ModelContext(container)
    context.insert(CUPerson("Ada", "Lovelace", city: "London"))
    try context.save()

    let later = ModelContext(container)
    later.uniquenessPolicy = .upsert
    later.insert(CUPerson("Ada", "Lovelace", city: "Paris"))
    later.insert(CUPerson("Ada", "Byron", city: "Rome"))
    try later.save()
    let people = try ModelContext(container).fetch(
      FetchDescriptor<CUPerson>(sortBy: [SortDescriptor(\.familyName)]))
    #expect(
      people.map { "\($0.familyName) \($0.city ?? "-")" } == ["Byron Rome", "Lovelace Paris"])
  }
}
