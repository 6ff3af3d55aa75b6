import ModelGraph

/// Departments deny their deletion while they have employees: reassign them to a default
/// department first.
func runStaffSection(_ context: ModelContext) throws {
  print("== Departments and employees")
  let unassigned = Department(name: "Unassigned")
  let research = Department(name: "Research")
  context.insert(unassigned)
  context.insert(research)
  research.employees = [Employee(name: "Ada"), Employee(name: "Grace")]
  try context.save()
  print("Research: \(list(research.employees.map(\.name)))")

  print("Deleting Research while it has employees:")
  context.delete(research)
  do {
    try context.save()
  } catch let error as ModelError {
    report(error)
    context.rollback()
  }
  print("After rollback Research is deleted: \(research.isDeleted)")

  for employee in research.employees { employee.department = unassigned }
  context.delete(research)
  try context.save()
  let departments = try context.fetch(FetchDescriptor<Department>(sortBy: [SortDescriptor(\.name)]))
  print("Reassigned, then deleted; departments: \(list(departments.map(\.name)))")
  let staff = try context.fetch(FetchDescriptor<Employee>(sortBy: [SortDescriptor(\.name)]))
  for employee in staff {
    print("  \(employee.name) works in \(employee.department?.name ?? "no department")")
  }
}
