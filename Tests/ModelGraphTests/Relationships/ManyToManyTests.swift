import ModelGraph
import Testing

@Suite("Relationships: students and courses, many-to-many")
struct RelationshipManyToManyTests {
  @Test("enrolling from either side updates both arrays at once")
  func enrollUpdatesBothSides() throws {
    let context = try makeInMemoryContext(RLStudent.self)
    let ann = RLStudent(name: "Ann")
    let bo = RLStudent(name: "Bo")
    let math = RLCourse(title: "Math")
    let art = RLCourse(title: "Art")
    let objects: [any PersistentModel] = [ann, bo, math, art]
    for object in objects { context.insert(object) }

    ann.courses.append(math)
    ann.courses.append(art)
    art.students.append(bo)
    #expect(ann.courses.map(\.title) == ["Math", "Art"])
    #expect(bo.courses.map(\.title) == ["Art"])
    #expect(math.students.map(\.name) == ["Ann"])
    #expect(art.students.map(\.name) == ["Ann", "Bo"])
  }

  @Test("dropping a course from either side removes the pair from both arrays")
  func dropUpdatesBothSides() throws {
    let context = try makeInMemoryContext(RLStudent.self)
    let ann = RLStudent(name: "Ann")
    let math = RLCourse(title: "Math")
    let art = RLCourse(title: "Art")
    context.insert(ann)
    ann.courses = [math, art]
    try context.save()

    ann.courses.removeAll { $0 === math }
    #expect(math.students.isEmpty)
    art.students = []
    #expect(ann.courses.isEmpty)
  }

  @Test("adding the same course twice keeps one entry on each side")
  func noDuplicates() throws {
    let context = try makeInMemoryContext(RLStudent.self)
    let ann = RLStudent(name: "Ann")
    let math = RLCourse(title: "Math")
    context.insert(ann)
    ann.courses = [math, math]
    ann.courses.append(math)
    math.students.append(ann)
    #expect(ann.courses.count == 1)
    #expect(math.students.count == 1)
  }

  @Test("deleting a student removes it from every course; the courses stay")
  func deleteStudentNullifies() throws {
    let container = try makeInMemoryContainer(RLStudent.self)
    let context = ModelContext(container)
    let ann = RLStudent(name: "Ann")
    let bo = RLStudent(name: "Bo")
    let math = RLCourse(title: "Math")
    let art = RLCourse(title: "Art")
    context.insert(ann)
    context.insert(bo)
    ann.courses = [math, art]
    bo.courses = [art, math]
    try context.save()

    context.delete(ann)
    #expect(math.students.map(\.name) == ["Bo"])
    #expect(art.students.map(\.name) == ["Bo"])
    try context.save()

    let fresh = ModelContext(container)
    let courses = try fresh.fetch(FetchDescriptor<RLCourse>(sortBy: [SortDescriptor(\.title)]))
    #expect(courses.map { $0.students.map(\.name) } == [["Bo"], ["Bo"]])
    let student = try #require(try fresh.fetch(FetchDescriptor<RLStudent>()).first)
    #expect(student.courses.map(\.title) == ["Art", "Math"])
  }

  @Test("both arrays survive a save and a fetch in another context")
  func persistsBothSides() throws {
    let container = try makeInMemoryContainer(RLStudent.self)
    let context = ModelContext(container)
    let students = (0..<4).map { RLStudent(name: "S\($0)") }
    let courses = (0..<3).map { RLCourse(title: "C\($0)") }
    for student in students { context.insert(student) }
    students[0].courses = [courses[2], courses[0]]
    students[1].courses = [courses[0]]
    courses[1].students = [students[3], students[1]]
    try context.save()

    let fresh = ModelContext(container)
    let stored = try fresh.fetch(FetchDescriptor<RLStudent>(sortBy: [SortDescriptor(\.name)]))
    #expect(stored.map { $0.courses.map(\.title) } == [["C2", "C0"], ["C0", "C1"], [], ["C1"]])
    let storedCourses = try fresh.fetch(
      FetchDescriptor<RLCourse>(sortBy: [SortDescriptor(\.title)]))
    #expect(
      storedCourses.map { $0.students.map(\.name) } == [["S0", "S1"], ["S3", "S1"], ["S0"]])
  }
}

@Suite("Relationships: to-many order")
struct RelationshipOrderTests {
  @Test("a to-many keeps the order objects were added in, across saves and fetches")
  func insertionOrderIsStable() throws {
    let container = try makeInMemoryContainer(RLDepartment.self)
    let context = ModelContext(container)
    let sales = RLDepartment(name: "Sales")
    context.insert(sales)
    var generator = SplitMix64(seed: 7)
    let numbers = (0..<60).map { $0 }.shuffled(using: &generator)
    var expected: [String] = []
    for (index, number) in numbers.enumerated() {
      let employee = RLEmployee(name: "E\(number)", number: number)
      // Half join through the to-one, half through the to-many.
      if index.isMultiple(of: 2) {
        employee.department = sales
      } else {
        sales.employees.append(employee)
      }
      expected.append(employee.name)
    }
    #expect(names(sales.employees) == expected)
    try context.save()
    #expect(names(sales.employees) == expected)

    for _ in 0..<3 {
      let fresh = ModelContext(container)
      let department = try #require(try fresh.fetch(FetchDescriptor<RLDepartment>()).first)
      #expect(names(department.employees) == expected)
    }

    // Removing from the middle keeps the rest in order; a re-added object goes last.
    let moved = sales.employees[10]
    moved.department = nil
    expected.remove(at: 10)
    #expect(names(sales.employees) == expected)
    sales.employees.append(moved)
    expected.append(moved.name)
    try context.save()
    let fresh = ModelContext(container)
    let department = try #require(try fresh.fetch(FetchDescriptor<RLDepartment>()).first)
    #expect(names(department.employees) == expected)
  }

  @Test("assigning a reordered array stores the new order")
  func reorderIsStored() throws {
    let container = try makeInMemoryContainer(RLDepartment.self)
    let context = ModelContext(container)
    let sales = RLDepartment(name: "Sales")
    context.insert(sales)
    sales.employees = ["A", "B", "C", "D"].map { RLEmployee(name: $0) }
    try context.save()
    sales.employees = sales.employees.reversed()
    #expect(names(sales.employees) == ["D", "C", "B", "A"])
    try context.save()
    let department = try #require(
      try ModelContext(container).fetch(FetchDescriptor<RLDepartment>()).first)
    #expect(names(department.employees) == ["D", "C", "B", "A"])
  }
}
