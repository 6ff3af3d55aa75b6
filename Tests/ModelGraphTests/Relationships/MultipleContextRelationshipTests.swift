import ModelGraph
import Testing

/// Whether every department lists exactly the employees that point at it, in `context`.
func inversesAreSymmetric(_ context: ModelContext) throws -> Bool {
  let departments = try context.fetch(FetchDescriptor<RLDepartment>())
  let employees = try context.fetch(FetchDescriptor<RLEmployee>())
  for department in departments {
    let listed = Set(department.employees.map(ObjectIdentifier.init))
    let pointing = Set(
      employees.filter { $0.department === department }.map(ObjectIdentifier.init))
    if listed != pointing { return false }
  }
  return true
}

@Suite("Relationships: saves of several contexts")
struct RelationshipMultipleContextTests {
  @Test("two contexts adding different employees to one department both keep theirs")
  func concurrentAppends() throws {
    let container = try makeInMemoryContainer(RLDepartment.self)
    let setup = ModelContext(container)
    setup.insert(RLDepartment(name: "Sales"))
    try setup.save()

    let first = ModelContext(container)
    let second = ModelContext(container)
    let firstSales = try #require(try first.fetch(FetchDescriptor<RLDepartment>()).first)
    let secondSales = try #require(try second.fetch(FetchDescriptor<RLDepartment>()).first)
    firstSales.employees.append(RLEmployee(name: "Ann"))
    secondSales.employees.append(RLEmployee(name: "Bo"))
    try first.save()
    try second.save()

    let fresh = ModelContext(container)
    let sales = try #require(try fresh.fetch(FetchDescriptor<RLDepartment>()).first)
    #expect(Set(names(sales.employees)) == ["Ann", "Bo"])
    #expect(try inversesAreSymmetric(fresh))
  }

  @Test(
    "two contexts moving one employee to different departments: a conflict, or the policy's pick",
    arguments: [
      (MergePolicyChoice.reject, "B"), (.lastWriterWins, "C"), (.storeWins, "B"),
    ])
  func concurrentMoves(policy: MergePolicyChoice, expected: String) throws {
    let container = try makeInMemoryContainer(RLDepartment.self)
    let setup = ModelContext(container)
    for name in ["A", "B", "C"] { setup.insert(RLDepartment(name: name)) }
    try setup.save()
    let departmentA = try #require(
      try setup.fetch(FetchDescriptor<RLDepartment>(predicate: #Predicate { $0.name == "A" }))
        .first)
    departmentA.employees = [RLEmployee(name: "Ann")]
    try setup.save()

    let first = ModelContext(container)
    let second = ModelContext(container)
    second.mergePolicy = policy.policy
    for (context, target) in [(first, "B"), (second, "C")] {
      let employee = try #require(try context.fetch(FetchDescriptor<RLEmployee>()).first)
      employee.department = try context.fetch(
        FetchDescriptor<RLDepartment>(predicate: #Predicate { $0.name == target })
      ).first
    }
    try first.save()
    if policy == .reject {
      let error = #expect(throws: ModelError.self) { try second.save() }
      #expect(error?.code == .conflict)
      #expect(error?.conflicts.map(\.kind) == [.relationship])
      #expect(error?.conflicts.first?.property == "department")
      #expect(second.hasChanges)
    } else {
      try second.save()
    }

    let fresh = ModelContext(container)
    let ann = try #require(try fresh.fetch(FetchDescriptor<RLEmployee>()).first)
    #expect(ann.department?.name == expected)
    #expect(try inversesAreSymmetric(fresh))
  }
}

/// A merge policy as a test argument (``MergePolicy`` holds a closure, so it is not equatable).
enum MergePolicyChoice: Sendable, Equatable {
  case reject, lastWriterWins, storeWins

  var policy: MergePolicy {
    switch self {
    case .reject: .rejectConflicts
    case .lastWriterWins: .lastWriterWins
    case .storeWins: .storeWins
    }
  }
}

@Suite("Relationships: rules checked against what other contexts saved")
struct RelationshipConcurrentRuleTests {
  @Test("two contexts inserting the same unique value: the second save fails")
  func uniqueAcrossContexts() throws {
    let container = try makeInMemoryContainer(RLAccount.self)
    let first = ModelContext(container)
    let second = ModelContext(container)
    first.insert(RLAccount(email: "a@x.org", name: "First"))
    second.insert(RLAccount(email: "a@x.org", name: "Second"))
    try first.save()
    #expect(throws: ModelError.self) { try second.save() }
    let stored = try ModelContext(container).fetch(FetchDescriptor<RLAccount>())
    #expect(stored.map(\.name) == ["First"])
  }
}
