import ModelGraph

/// A department; one that still has employees cannot be deleted (reassign them first).
class Department: PersistentModel {
  @Attribute(.unique) var name: String
  @Relationship(deleteRule: .deny, inverse: \Employee.department) var employees: [Employee]

  convenience init(name: String) {
    self.init()
    self.name = name
  }
}

/// An employee of one department.
class Employee: PersistentModel {
  @Attribute var name: String
  @Relationship var department: Department?

  convenience init(name: String) {
    self.init()
    self.name = name
  }
}
