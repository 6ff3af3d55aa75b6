@testable import ModelGraphCore

/// A dynamic schema for the session's graph rules: `Department(name, employees ->> Employee
/// cascade, rooms ->> Room deny)`, `Employee(name, badge?, department -> Department)`,
/// `Manager: Employee`, `Room(number, department -> Department)`, with `Employee` unique by
/// (name, badge) and `Department.name` unique.
enum GraphFixture {
  static let department = 0
  static let employee = 1
  static let manager = 2
  static let room = 3

  static let descriptions = [
    EntityDescription(
      name: "Department",
      attributes: [AttributeDescription(name: "name", valueType: .string, isUnique: true)],
      relationships: [
        RelationshipDescription(
          name: "employees", destination: "Employee", isToMany: true, inverse: "department",
          deleteRule: .cascade, maximumModelCount: 3),
        RelationshipDescription(
          name: "rooms", destination: "Room", isToMany: true, inverse: "department",
          deleteRule: .deny),
      ]),
    EntityDescription(
      name: "Employee",
      attributes: [
        AttributeDescription(name: "name", valueType: .string),
        AttributeDescription(name: "badge", valueType: .int, isOptional: true),
      ],
      relationships: [
        RelationshipDescription(
          name: "department", destination: "Department", isToMany: false, inverse: "employees")
      ],
      uniqueConstraints: [["name", "badge"]]),
    EntityDescription(name: "Manager", parent: "Employee"),
    EntityDescription(
      name: "Room",
      attributes: [AttributeDescription(name: "number", valueType: .int)],
      relationships: [
        RelationshipDescription(
          name: "department", destination: "Department", isToMany: false, inverse: "rooms")
      ]),
  ]

  static func makeSession() throws -> Session {
    let store = Store()
    try store.register(descriptions)
    return Session(store: store)
  }
}

extension Session {
  func insertDepartment(_ name: String) -> ObjectKey {
    let key = insert(entity: GraphFixture.department)
    set(name, slot: 0, of: key)
    return key
  }

  func insertEmployee(_ name: String, badge: Int64?, entity: Int = GraphFixture.employee)
    -> ObjectKey
  {
    let key = insert(entity: entity)
    set(name, slot: 0, of: key)
    set(badge, slot: 1, of: key)
    return key
  }
}

extension SlotSet {
  static func of(_ slots: Int...) -> SlotSet {
    var set = SlotSet()
    for slot in slots { set.insert(slot) }
    return set
  }
}
