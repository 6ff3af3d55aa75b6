import ModelGraph

/// Students and courses: both sides of a many-to-many relationship stay in step.
func runCampusSection(_ context: ModelContext) throws {
  print("\n== Students and courses (many-to-many)")
  let algebra = Course(title: "Algebra")
  let biology = Course(title: "Biology")
  let chemistry = Course(title: "Chemistry")
  let ann = Student(name: "Ann")
  let bo = Student(name: "Bo")
  let cy = Student(name: "Cy")
  for student in [ann, bo, cy] { context.insert(student) }
  ann.courses = [algebra, biology]
  bo.courses = [biology, chemistry]
  chemistry.students.append(cy)
  algebra.students.append(cy)
  try context.save()
  try printEnrolment(context)

  print("Bo drops Biology; Cy leaves the school:")
  bo.courses.removeAll { $0 === biology }
  context.delete(cy)
  try context.save()
  try printEnrolment(context)

  print("Algebra again, in the Spring term and then in the Fall term:")
  context.insert(Course(title: "Algebra", term: "Spring"))
  try context.save()
  context.insert(Course(title: "Algebra", term: "Fall"))
  do {
    try context.save()
  } catch let error as ModelError {
    report(error)
    context.rollback()
  }
  let courses = try context.fetch(
    FetchDescriptor<Course>(sortBy: [SortDescriptor(\.title), SortDescriptor(\.term)]))
  print("  courses: \(list(courses.map { "\($0.title) (\($0.term))" }))")
}

private func printEnrolment(_ context: ModelContext) throws {
  let byName = [SortDescriptor(\Student.name)]
  for student in try context.fetch(FetchDescriptor<Student>(sortBy: byName)) {
    print("  \(student.name) takes \(list(student.courses.map(\.title)))")
  }
  for course in try context.fetch(FetchDescriptor<Course>(sortBy: [SortDescriptor(\.title)])) {
    print("  \(course.title) has \(list(course.students.map(\.name)))")
  }
}
