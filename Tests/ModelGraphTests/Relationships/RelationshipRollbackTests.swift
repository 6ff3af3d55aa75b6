import ModelGraph
import Testing

@Suite("Relationships: rollback")
struct RelationshipRollbackTests {
  @Test("rollback restores a reassignment on the employee and on both departments")
  func restoresReassignment() throws {
    let context = try makeDepartmentContext()
    let sales = RLDepartment(name: "Sales")
    let support = RLDepartment(name: "Support")
    context.insert(sales)
    context.insert(support)
    let ann = RLEmployee(name: "Ann")
    let bo = RLEmployee(name: "Bo")
    let cy = RLEmployee(name: "Cy")
    sales.employees = [ann, bo]
    support.employees = [cy]
    try context.save()

    ann.department = support
    cy.department = nil
    support.employees.append(bo)
    #expect(sales.employees.isEmpty)
    context.rollback()

    #expect(names(sales.employees) == ["Ann", "Bo"])
    #expect(names(support.employees) == ["Cy"])
    #expect(ann.department === sales)
    #expect(bo.department === sales)
    #expect(cy.department === support)
    #expect(!context.hasChanges)
    #expect(![sales, support].contains { $0.hasChanges })
  }

  @Test("rollback removes a new employee from the saved department it joined")
  func removesNewObjectFromSavedSide() throws {
    let context = try makeDepartmentContext()
    let sales = RLDepartment(name: "Sales")
    context.insert(sales)
    sales.employees = [RLEmployee(name: "Ann")]
    try context.save()

    let bo = RLEmployee(name: "Bo")
    bo.department = sales
    #expect(names(sales.employees) == ["Ann", "Bo"])
    context.rollback()
    #expect(names(sales.employees) == ["Ann"])
    #expect(bo.modelContext == nil)
    #expect(try context.fetchCount(FetchDescriptor<RLEmployee>()) == 1)
  }

  @Test("rollback restores many-to-many pairs on both sides")
  func restoresManyToMany() throws {
    let context = try makeInMemoryContext(RLStudent.self)
    let ann = RLStudent(name: "Ann")
    let math = RLCourse(title: "Math")
    let art = RLCourse(title: "Art")
    context.insert(ann)
    ann.courses = [math]
    context.insert(art)
    try context.save()

    ann.courses = [art]
    math.students.append(RLStudent(name: "Bo"))
    context.rollback()
    #expect(ann.courses.map(\.title) == ["Math"])
    #expect(math.students.map(\.name) == ["Ann"])
    #expect(art.students.isEmpty)
  }

  @Test("rollback of a delete restores the nullified inverses")
  func restoresNullifiedInverses() throws {
    let context = try makeInMemoryContext(RLStudent.self)
    let ann = RLStudent(name: "Ann")
    let math = RLCourse(title: "Math")
    context.insert(ann)
    ann.courses = [math]
    try context.save()

    context.delete(math)
    #expect(ann.courses.isEmpty)
    context.rollback()
    #expect(!math.isDeleted)
    #expect(ann.courses.map(\.title) == ["Math"])
    #expect(math.students.map(\.name) == ["Ann"])
  }

  @Test("rollback of a cascade brings the whole tree back, linked")
  func restoresCascade() throws {
    let container = try makeRelationshipTripContainer()
    let context = ModelContext(container)
    let trip = makeBusinessTrip("Summit")
    context.insert(trip)
    trip.accommodations = [makeHotel("Grand", rooms: 2)]
    try context.save()
    let hotel = try #require(trip.accommodations.first as? RLHotel)
    let rooms = hotel.rooms

    context.delete(trip)
    context.rollback()
    #expect(!trip.isDeleted && !hotel.isDeleted && rooms.allSatisfy { !$0.isDeleted })
    #expect(hotel.trip === trip)
    #expect(hotel.rooms.map(\.number) == [1, 2])
    #expect(rooms.allSatisfy { $0.hotel === hotel && $0.notes.count == 1 })
    #expect(try storedTripCounts(container) == [1, 1, 2, 2, 0, 0, 0])
  }
}

@Suite("Relationships: rollback and re-insert")
struct RelationshipReinsertTests {
  @Test("a new employee rolled back keeps its department and rejoins it when inserted again")
  func reinsertAfterRollback() throws {
    let context = try makeDepartmentContext()
    let sales = RLDepartment(name: "Sales")
    context.insert(sales)
    try context.save()
    let ann = RLEmployee(name: "Ann")
    sales.employees.append(ann)
    context.rollback()
    #expect(sales.employees.isEmpty)
    #expect(ann.department === sales)

    context.insert(ann)
    #expect(names(sales.employees) == ["Ann"])
    try context.save()
    #expect(
      try context.fetch(FetchDescriptor<RLEmployee>()).map { $0.department?.name } == ["Sales"])
  }
}
