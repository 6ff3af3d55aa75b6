import ModelGraph
import Testing

/// The relationships a random sequence of operations should leave, kept in plain dictionaries
/// keyed by object name.
private struct GraphModel: Equatable {
  var departments: [String: [String]] = [:]
  var employees: [String: String?] = [:]
  var mentors: [String: String] = [:]
  var students: [String: [String]] = [:]
  var courses: [String: [String]] = [:]

  mutating func move(_ employee: String, to department: String?) {
    let old = employees[employee] ?? nil
    guard old != department else { return }
    if let old { departments[old]!.removeAll { $0 == employee } }
    if let department { departments[department]!.append(employee) }
    employees[employee] = department
  }

  mutating func deleteEmployee(_ employee: String) {
    move(employee, to: nil)
    employees[employee] = nil
    mentors[employee] = nil
    // Mentor is one way: references to a deleted mentor read as nil.
    mentors = mentors.filter { $0.value != employee }
  }

  mutating func enroll(_ student: String, in course: String) {
    guard !students[student]!.contains(course) else { return }
    students[student]!.append(course)
    courses[course]!.append(student)
  }

  mutating func drop(_ student: String, from course: String) {
    students[student]!.removeAll { $0 == course }
    courses[course]!.removeAll { $0 == student }
  }
}

/// Drives one context with random inserts, deletes and relinks, checking it against the model.
private struct GraphDriver {
  let container: ModelContainer
  let context: ModelContext
  var model = GraphModel()
  var saved = GraphModel()
  var departments: [String: RLDepartment] = [:]
  var employees: [String: RLEmployee] = [:]
  var students: [String: RLStudent] = [:]
  var courses: [String: RLCourse] = [:]
  var counter = 0
  var generator: SplitMix64

  init(seed: UInt64) throws {
    container = try makeInMemoryContainer(RLDepartment.self, RLStudent.self)
    context = ModelContext(container)
    generator = SplitMix64(seed: seed)
  }

  mutating func nextName(_ prefix: String) -> String {
    counter += 1
    return "\(prefix)\(counter)"
  }

  mutating func pick<Value>(_ values: [String: Value]) -> (String, Value)? {
    guard !values.isEmpty else { return nil }
    let keys = values.keys.sorted()
    let key = keys[Int.random(in: 0..<keys.count, using: &generator)]
    return (key, values[key]!)
  }

  mutating func coin() -> Bool { Bool.random(using: &generator) }

  mutating func step() throws {
    switch Int.random(in: 0..<100, using: &generator) {
    case 0..<6:
      let name = nextName("D")
      let department = RLDepartment(name: name)
      context.insert(department)
      departments[name] = department
      model.departments[name] = []
    case 6..<20:
      let name = nextName("E")
      let employee = RLEmployee(name: name)
      employees[name] = employee
      model.employees[name] = .some(nil)
      if let (target, department) = pick(departments) {
        if coin() {
          employee.department = department
        } else {
          department.employees.append(employee)
        }
        model.move(name, to: target)
      } else {
        context.insert(employee)
      }
    case 20..<34:
      guard let (name, employee) = pick(employees) else { return }
      let target = coin() ? pick(departments) : nil
      if let (targetName, department) = target {
        if coin() {
          employee.department = department
        } else {
          department.employees.append(employee)
        }
        model.move(name, to: targetName)
      } else if let current = employee.department, coin() {
        current.employees.removeAll { $0 === employee }
        model.move(name, to: nil)
      } else {
        employee.department = nil
        model.move(name, to: nil)
      }
    case 34..<40:
      guard let (name, employee) = pick(employees) else { return }
      context.delete(employee)
      employees[name] = nil
      model.deleteEmployee(name)
    case 40..<44:
      guard let (name, department) = pick(departments) else { return }
      // The deny rule: reassign or release the employees first.
      let heir = pick(departments.filter { $0.key != name })
      for employee in department.employees {
        employee.department = heir?.1
        model.move(employee.name, to: heir?.0)
      }
      context.delete(department)
      departments[name] = nil
      model.departments[name] = nil
    case 44..<50:
      guard let (name, employee) = pick(employees) else { return }
      if let (mentorName, mentor) = pick(employees), coin() {
        employee.mentor = mentor
        model.mentors[name] = mentorName
      } else {
        employee.mentor = nil
        model.mentors[name] = nil
      }
    case 50..<58:
      if coin() {
        let name = nextName("S")
        let student = RLStudent(name: name)
        context.insert(student)
        students[name] = student
        model.students[name] = []
      } else {
        let name = nextName("C")
        let course = RLCourse(title: name)
        context.insert(course)
        courses[name] = course
        model.courses[name] = []
      }
    case 58..<74:
      guard let (studentName, student) = pick(students), let (courseName, course) = pick(courses)
      else { return }
      if coin() { student.courses.append(course) } else { course.students.append(student) }
      model.enroll(studentName, in: courseName)
    case 74..<84:
      guard let (studentName, student) = pick(students), let (courseName, course) = pick(courses)
      else { return }
      if coin() {
        student.courses.removeAll { $0 === course }
      } else {
        course.students.removeAll { $0 === student }
      }
      model.drop(studentName, from: courseName)
    case 84..<89:
      if coin(), let (name, student) = pick(students) {
        context.delete(student)
        students[name] = nil
        for course in model.students[name]! { model.drop(name, from: course) }
        model.students[name] = nil
      } else if let (name, course) = pick(courses) {
        context.delete(course)
        courses[name] = nil
        for student in model.courses[name]! { model.drop(student, from: name) }
        model.courses[name] = nil
      }
    case 89..<97:
      try context.save()
      saved = model
      if coin() { try check(ModelContext(container)) }
    default:
      context.rollback()
      model = saved
      try reloadHandles()
    }
  }

  /// Points the handle dictionaries at the context's live objects (after a rollback).
  mutating func reloadHandles() throws {
    departments = Dictionary(
      uniqueKeysWithValues: try context.fetch(FetchDescriptor<RLDepartment>()).map { ($0.name, $0) }
    )
    employees = Dictionary(
      uniqueKeysWithValues: try context.fetch(FetchDescriptor<RLEmployee>()).map { ($0.name, $0) })
    students = Dictionary(
      uniqueKeysWithValues: try context.fetch(FetchDescriptor<RLStudent>()).map { ($0.name, $0) })
    courses = Dictionary(
      uniqueKeysWithValues: try context.fetch(FetchDescriptor<RLCourse>()).map { ($0.title, $0) })
  }

  /// The graph as `context` reads it, in the model's form.
  func read(_ context: ModelContext) throws -> GraphModel {
    var graph = GraphModel()
    for department in try context.fetch(FetchDescriptor<RLDepartment>()) {
      graph.departments[department.name] = department.employees.map(\.name)
    }
    for employee in try context.fetch(FetchDescriptor<RLEmployee>()) {
      graph.employees[employee.name] = .some(employee.department?.name)
      if let mentor = employee.mentor { graph.mentors[employee.name] = mentor.name }
    }
    for student in try context.fetch(FetchDescriptor<RLStudent>()) {
      graph.students[student.name] = student.courses.map(\.title)
    }
    for course in try context.fetch(FetchDescriptor<RLCourse>()) {
      graph.courses[course.title] = course.students.map(\.name)
    }
    return graph
  }

  /// Compares what `context` reads with the model (the saved one for another context).
  func check(_ other: ModelContext? = nil) throws {
    let graph = try read(other ?? context)
    let expected = other == nil ? model : saved
    #expect(graph == expected)
    // No reachable object is deleted, and every pair is listed on both sides.
    for department in departments.values {
      #expect(department.employees.allSatisfy { !$0.isDeleted && $0.department === department })
    }
    for student in students.values {
      #expect(student.courses.allSatisfy { course in course.students.contains { $0 === student } })
    }
  }
}

@Suite("Relationships: graph invariants after random operations")
struct RelationshipGraphInvariantTests {
  @Test(
    "random inserts, deletes, relinks, saves and rollbacks keep both sides in step",
    arguments: [1, 2, 3] as [UInt64])
  func randomOperations(seed: UInt64) throws {
    var driver = try GraphDriver(seed: seed)
    for step in 0..<300 {
      try driver.step()
      let graph = try driver.read(driver.context)
      if graph != driver.model {
        Issue.record("seed \(seed), step \(step): context differs from the model")
        try driver.check()
        return
      }
    }
    try driver.context.save()
    driver.saved = driver.model
    try driver.check(ModelContext(driver.container))
    try driver.check()
  }
}
