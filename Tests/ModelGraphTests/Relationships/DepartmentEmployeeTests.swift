import ModelGraph
import Testing

/// A context for the department models.
func makeDepartmentContext() throws -> ModelContext {
  try makeInMemoryContext(RLDepartment.self, RLEmployee.self, RLBadge.self)
}

/// The names of `employees`, in order.
func names(_ employees: [RLEmployee]) -> [String] { employees.map(\.name) }

@Suite("Relationships: departments and employees, both sides in step")
struct RelationshipDepartmentTests {
  @Test("setting an employee's department adds the employee to the department at once")
  func toOneUpdatesToMany() throws {
    let context = try makeDepartmentContext()
    let sales = RLDepartment(name: "Sales")
    let ann = RLEmployee(name: "Ann")
    let bo = RLEmployee(name: "Bo")
    context.insert(sales)
    context.insert(ann)
    context.insert(bo)

    ann.department = sales
    bo.department = sales
    #expect(names(sales.employees) == ["Ann", "Bo"])
    #expect(ann.department === sales)
  }

  @Test("appending to a department's employees sets each employee's department at once")
  func toManyUpdatesToOne() throws {
    let context = try makeDepartmentContext()
    let sales = RLDepartment(name: "Sales")
    context.insert(sales)
    let ann = RLEmployee(name: "Ann")
    context.insert(ann)

    sales.employees.append(ann)
    #expect(ann.department === sales)
    sales.employees = []
    #expect(ann.department == nil)
  }

  @Test("reassigning an employee updates both departments before the save, and after it")
  func reassignUpdatesBothDepartments() throws {
    let container = try makeInMemoryContainer(RLDepartment.self)
    let context = ModelContext(container)
    let sales = RLDepartment(name: "Sales")
    let support = RLDepartment(name: "Support")
    context.insert(sales)
    context.insert(support)
    let ann = RLEmployee(name: "Ann")
    let bo = RLEmployee(name: "Bo")
    sales.employees = [ann, bo]
    try context.save()

    ann.department = support
    #expect(names(sales.employees) == ["Bo"])
    #expect(names(support.employees) == ["Ann"])
    #expect(sales.hasChanges)
    #expect(support.hasChanges)

    support.employees.append(bo)
    #expect(sales.employees.isEmpty)
    #expect(names(support.employees) == ["Ann", "Bo"])
    #expect(bo.department === support)
    try context.save()

    let fresh = ModelContext(container)
    let departments = try fresh.fetch(
      FetchDescriptor<RLDepartment>(sortBy: [SortDescriptor(\.name)]))
    #expect(departments.map { names($0.employees) } == [[], ["Ann", "Bo"]])
    let employees = try fresh.fetch(FetchDescriptor<RLEmployee>())
    #expect(employees.allSatisfy { $0.department?.name == "Support" })
  }

  @Test("moving every employee to a default department lets the department be deleted")
  func reassignToDefaultThenDelete() throws {
    let container = try makeInMemoryContainer(RLDepartment.self)
    let context = ModelContext(container)
    let general = RLDepartment(name: "General")
    let closing = RLDepartment(name: "Closing")
    context.insert(general)
    context.insert(closing)
    closing.employees = [RLEmployee(name: "Ann"), RLEmployee(name: "Bo")]
    general.employees = [RLEmployee(name: "Cy")]
    try context.save()

    for employee in closing.employees { employee.department = general }
    #expect(closing.employees.isEmpty)
    context.delete(closing)
    try context.save()

    let fresh = ModelContext(container)
    let departments = try fresh.fetch(FetchDescriptor<RLDepartment>())
    #expect(departments.map(\.name) == ["General"])
    #expect(departments.first.map { names($0.employees) } == ["Cy", "Ann", "Bo"])
    #expect(try fresh.fetchCount(FetchDescriptor<RLEmployee>()) == 3)
  }

  @Test("deleting a department that still has employees fails the save (deny)")
  func denyWhileEmployeesRemain() throws {
    let container = try makeInMemoryContainer(RLDepartment.self)
    let context = ModelContext(container)
    let closing = RLDepartment(name: "Closing")
    context.insert(closing)
    closing.employees = [RLEmployee(name: "Ann")]
    try context.save()
    let version = container.store.version.number

    context.delete(closing)
    let error = try #require(throws: ModelError.self) { try context.save() }
    #expect(error.code == .validationFailed)
    #expect(error.violations.count == 1)
    let violation = try #require(error.violations.first)
    #expect(violation.entity == "RLDepartment")
    #expect(violation.property == "employees")
    #expect(violation.identifier == closing.persistentModelID)
    #expect(container.store.version.number == version)
    #expect(closing.isDeleted)
  }

  @Test("after a denied save, moving the employees away (changes still pending) lets it succeed")
  func denyThenFixPendingChanges() throws {
    let container = try makeInMemoryContainer(RLDepartment.self)
    let context = ModelContext(container)
    let general = RLDepartment(name: "General")
    let closing = RLDepartment(name: "Closing")
    context.insert(general)
    context.insert(closing)
    let ann = RLEmployee(name: "Ann")
    closing.employees = [ann]
    try context.save()

    context.delete(closing)
    #expect(throws: ModelError.self) { try context.save() }
    ann.department = general
    #expect(names(general.employees) == ["Ann"])
    try context.save()

    let fresh = ModelContext(container)
    #expect(try fresh.fetch(FetchDescriptor<RLDepartment>()).map(\.name) == ["General"])
    #expect(
      try fresh.fetch(FetchDescriptor<RLEmployee>()).map { $0.department?.name } == ["General"])
  }

  @Test("after a denied save, deleting the employees too lets it succeed")
  func denyThenDeleteChildren() throws {
    let container = try makeInMemoryContainer(RLDepartment.self)
    let context = ModelContext(container)
    let closing = RLDepartment(name: "Closing")
    context.insert(closing)
    let ann = RLEmployee(name: "Ann")
    closing.employees = [ann]
    try context.save()

    context.delete(closing)
    #expect(throws: ModelError.self) { try context.save() }
    context.delete(ann)
    try context.save()
    let fresh = ModelContext(container)
    #expect(try fresh.fetchCount(FetchDescriptor<RLDepartment>()) == 0)
    #expect(try fresh.fetchCount(FetchDescriptor<RLEmployee>()) == 0)
  }

  @Test(
    "a department changed only through an inverse is listed as changed when loaded later")
  func inverseChangeMarksUnloadedSide() throws {
    let container = try makeInMemoryContainer(RLDepartment.self)
    let setup = ModelContext(container)
    let sales = RLDepartment(name: "Sales")
    setup.insert(sales)
    setup.insert(RLDepartment(name: "Support"))
    sales.employees = [RLEmployee(name: "Ann")]
    try setup.save()

    // Only the employee and the target department are loaded; Sales is not.
    let context = ModelContext(container)
    let ann = try #require(try context.fetch(FetchDescriptor<RLEmployee>()).first)
    let support = try #require(
      try context.fetch(
        FetchDescriptor<RLDepartment>(predicate: #Predicate { $0.name == "Support" })
      ).first)
    ann.department = support
    let loaded = try #require(
      try context.fetch(
        FetchDescriptor<RLDepartment>(predicate: #Predicate { $0.name == "Sales" })
      ).first)
    #expect(loaded.employees.isEmpty)
    #expect(loaded.hasChanges)
    #expect(context.changedModelsArray.contains { $0 === loaded })
  }

  @Test("deleting an employee removes it from its department (nullify by default)")
  func deletingEmployeeNullifies() throws {
    let container = try makeInMemoryContainer(RLDepartment.self)
    let context = ModelContext(container)
    let sales = RLDepartment(name: "Sales")
    context.insert(sales)
    let ann = RLEmployee(name: "Ann")
    sales.employees = [ann, RLEmployee(name: "Bo"), RLEmployee(name: "Cy")]
    try context.save()

    context.delete(ann)
    #expect(names(sales.employees) == ["Bo", "Cy"])
    try context.save()
    let department = try #require(
      try ModelContext(container).fetch(FetchDescriptor<RLDepartment>()).first)
    #expect(names(department.employees) == ["Bo", "Cy"])
  }
}

@Suite("Relationships: new objects join the context through relationships")
struct RelationshipAutoInsertTests {
  @Test("appending a never-inserted employee to a managed department inserts it")
  func appendNewToManaged() throws {
    let context = try makeDepartmentContext()
    let sales = RLDepartment(name: "Sales")
    context.insert(sales)
    try context.save()

    let ann = RLEmployee(name: "Ann")
    sales.employees.append(ann)
    #expect(ann.modelContext === context)
    #expect(context.insertedModelsArray.contains { $0 === ann })
    #expect(ann.department === sales)
    try context.save()
    #expect(try context.fetch(FetchDescriptor<RLEmployee>()).map(\.name) == ["Ann"])
  }

  @Test("setting a managed employee's department to a new department inserts the department")
  func setNewToOneOnManaged() throws {
    let context = try makeDepartmentContext()
    let ann = RLEmployee(name: "Ann")
    context.insert(ann)
    try context.save()

    let research = RLDepartment(name: "Research")
    ann.department = research
    #expect(research.modelContext === context)
    #expect(names(research.employees) == ["Ann"])
    try context.save()
    #expect(try context.fetch(FetchDescriptor<RLDepartment>()).map(\.name) == ["Research"])
  }

  @Test("pointing a new employee at a managed department inserts the employee")
  func newPointsAtManaged() throws {
    let context = try makeDepartmentContext()
    let sales = RLDepartment(name: "Sales")
    context.insert(sales)
    let ann = RLEmployee(name: "Ann")
    ann.department = sales
    #expect(ann.modelContext === context)
    #expect(names(sales.employees) == ["Ann"])
  }

  @Test("a graph built before the insert is inserted whole, with both sides set")
  func graphBuiltBeforeInsert() throws {
    let context = try makeDepartmentContext()
    let sales = RLDepartment(name: "Sales")
    let ann = RLEmployee(name: "Ann")
    let bo = RLEmployee(name: "Bo")
    sales.employees = [ann, bo]
    #expect(names(sales.employees) == ["Ann", "Bo"])
    context.insert(sales)

    #expect(ann.modelContext === context)
    #expect(bo.modelContext === context)
    #expect(ann.department === sales)
    #expect(bo.department === sales)
    try context.save()
    #expect(try context.fetchCount(FetchDescriptor<RLEmployee>()) == 2)
  }
}

@Suite("Relationships without an inverse")
struct RelationshipOneWayTests {
  @Test("a one-way to-one changes only its owner")
  func oneWayToOne() throws {
    let container = try makeInMemoryContainer(RLDepartment.self)
    let context = ModelContext(container)
    let mentor = RLEmployee(name: "Mentor")
    let ann = RLEmployee(name: "Ann")
    let sales = RLDepartment(name: "Sales")
    context.insert(sales)
    sales.employees = [mentor, ann]
    try context.save()

    ann.mentor = mentor
    #expect(ann.mentor === mentor)
    #expect(mentor.mentor == nil)
    #expect(!mentor.hasChanges)
    #expect(!sales.hasChanges)
    #expect(names(sales.employees) == ["Mentor", "Ann"])
    try context.save()

    let fresh = ModelContext(container)
    let stored = try fresh.fetch(FetchDescriptor<RLEmployee>(sortBy: [SortDescriptor(\.name)]))
    #expect(stored.map { $0.mentor?.name } == ["Mentor", nil])
  }

  @Test("a one-way to-many does not touch the objects it lists; deleting one leaves it out")
  func oneWayToMany() throws {
    let container = try makeInMemoryContainer(RLBadge.self)
    let context = ModelContext(container)
    let badge = RLBadge(title: "First aid")
    let ann = RLEmployee(name: "Ann")
    let bo = RLEmployee(name: "Bo")
    context.insert(badge)
    context.insert(ann)
    context.insert(bo)
    try context.save()

    badge.holders = [ann, bo]
    #expect(!ann.hasChanges)
    #expect(ann.department == nil)
    try context.save()

    context.delete(ann)
    try context.save()
    #expect(!badge.isDeleted)
    #expect(names(badge.holders) == ["Bo"])
    let fresh = ModelContext(container)
    let stored = try #require(try fresh.fetch(FetchDescriptor<RLBadge>()).first)
    #expect(names(stored.holders) == ["Bo"])
  }

  @Test("deleting the owner of a one-way relationship leaves its targets")
  func deletingOwnerKeepsTargets() throws {
    let context = try makeDepartmentContext()
    let badge = RLBadge(title: "First aid")
    context.insert(badge)
    badge.holders = [RLEmployee(name: "Ann")]
    try context.save()
    context.delete(badge)
    try context.save()
    #expect(try context.fetch(FetchDescriptor<RLEmployee>()).map(\.name) == ["Ann"])
  }
}
