import ModelGraph

/// A person is unique by given and family name together (`#Unique<Person>([\.givenName,
/// \.familyName])` in SwiftData); an employee inherits the constraint.
class CUPerson: PersistentModel, IndexedModel {
  @Attribute var givenName: String
  @Attribute var familyName: String
  @Attribute var city: String?
  @Attribute var badge: Int?

  class var indexes: [ModelIndex] {
    [.unique(\CUPerson.givenName, \CUPerson.familyName), .ordered(\CUPerson.familyName)]
  }

  convenience init(_ given: String, _ family: String, city: String? = nil, badge: Int? = nil) {
    self.init()
    givenName = given
    familyName = family
    self.city = city
    self.badge = badge
  }
}

/// Inherits the name constraint and adds its own: a badge number is unique per city.
class CUEmployee: CUPerson {
  @Attribute var company = ""

  override class var indexes: [ModelIndex] {
    super.indexes + [.unique(\CUEmployee.city, \CUEmployee.badge)]
  }
}

/// Declares a single-attribute unique index without `@Attribute(.unique)`.
class CUCode: PersistentModel, IndexedModel {
  @Attribute var code: String

  class var indexes: [ModelIndex] { [.unique(\CUCode.code)] }

  convenience init(_ code: String) {
    self.init()
    self.code = code
  }
}

/// A unique constraint over a computed property: a schema error.
class CUBroken: PersistentModel, IndexedModel {
  @Attribute var name: String
  var shout: String { name.uppercased() }

  class var indexes: [ModelIndex] { [.unique(\CUBroken.name, \CUBroken.shout)] }
}
