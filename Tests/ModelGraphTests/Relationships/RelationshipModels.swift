import ModelGraph

// Models of the relationship suites (prefixed `RL` so the names stay unique in the test target).

/// A department; deleting one that still has employees is refused (reassign them first).
class RLDepartment: PersistentModel {
  @Attribute var name: String
  @Relationship(deleteRule: .deny, inverse: \RLEmployee.department) var employees: [RLEmployee]

  convenience init(name: String) {
    self.init()
    self.name = name
  }
}

/// An employee: one department (the inverse of `employees`) and a one-way mentor.
class RLEmployee: PersistentModel {
  @Attribute var name: String
  @Attribute var number = 0
  @Relationship var department: RLDepartment?
  /// One way: a mentor does not know whom they mentor.
  @Relationship var mentor: RLEmployee?

  convenience init(name: String, number: Int = 0) {
    self.init()
    self.name = name
    self.number = number
  }
}

/// A badge lists employees one way: employees do not know their badges.
class RLBadge: PersistentModel {
  @Attribute var title: String
  @Relationship var holders: [RLEmployee]

  convenience init(title: String) {
    self.init()
    self.title = title
  }
}

/// A student enrolled in many courses; a course has many students.
class RLStudent: PersistentModel {
  @Attribute var name: String
  @Attribute var number = 0
  @Relationship(inverse: \RLCourse.students) var courses: [RLCourse]

  convenience init(name: String, number: Int = 0) {
    self.init()
    self.name = name
    self.number = number
  }
}

class RLCourse: PersistentModel {
  @Attribute var title: String
  @Attribute var number = 0
  @Relationship var students: [RLStudent]

  convenience init(title: String, number: Int = 0) {
    self.init()
    self.title = title
    self.number = number
  }
}

/// A library: its books go with it, its members stay (without a library), its events block its
/// deletion, its histories are left as they are.
class RLLibrary: PersistentModel {
  @Attribute var name: String
  @Relationship(deleteRule: .cascade, inverse: \RLBook.library) var books: [RLBook]
  @Relationship(deleteRule: .nullify, inverse: \RLMember.library) var members: [RLMember]
  @Relationship(deleteRule: .deny, inverse: \RLEvent.library) var events: [RLEvent]
  @Relationship(deleteRule: .noAction, inverse: \RLHistory.library) var histories: [RLHistory]

  convenience init(name: String) {
    self.init()
    self.name = name
  }
}

class RLBook: PersistentModel {
  @Attribute var title: String
  @Attribute(.preserveValueOnDeletion) var isbn: String
  @Relationship var library: RLLibrary?

  convenience init(title: String, isbn: String = "") {
    self.init()
    self.title = title
    self.isbn = isbn
  }
}

class RLMember: PersistentModel {
  @Attribute var name: String
  @Relationship var library: RLLibrary?

  convenience init(name: String) {
    self.init()
    self.name = name
  }
}

class RLEvent: PersistentModel {
  @Attribute var title: String
  @Relationship var library: RLLibrary?

  convenience init(title: String) {
    self.init()
    self.title = title
  }
}

class RLHistory: PersistentModel {
  @Attribute var note: String
  @Relationship var library: RLLibrary?

  convenience init(note: String) {
    self.init()
    self.note = note
  }
}

/// A team needs one to three players.
class RLTeam: PersistentModel {
  @Attribute var name: String
  @Relationship(minimumModelCount: 1, maximumModelCount: 3, inverse: \RLPlayer.team)
  var players: [RLPlayer]

  convenience init(name: String) {
    self.init()
    self.name = name
  }
}

class RLPlayer: PersistentModel {
  @Attribute var name: String
  @Relationship var team: RLTeam?

  convenience init(name: String) {
    self.init()
    self.name = name
  }
}

/// An account whose email is unique across the hierarchy (administrators included).
class RLAccount: PersistentModel {
  @Attribute(.unique) var email: String
  @Attribute var name: String
  @Attribute(.unique) var handle: String?

  convenience init(email: String, name: String, handle: String? = nil) {
    self.init()
    self.email = email
    self.name = name
    self.handle = handle
  }
}

class RLAdministrator: RLAccount {
  @Attribute var level = 1
}

/// A passport belongs to one traveler and a traveler holds one passport (one-to-one); the
/// passport goes with its holder.
class RLPassport: PersistentModel {
  @Attribute var number: String
  @Relationship(inverse: \RLHolder.passport) var holder: RLHolder?

  convenience init(number: String) {
    self.init()
    self.number = number
  }
}

class RLHolder: PersistentModel {
  @Attribute var name: String
  @Relationship(deleteRule: .cascade) var passport: RLPassport?

  convenience init(name: String) {
    self.init()
    self.name = name
  }
}

/// Declares as inverse a relationship of the destination that points at another class.
class RLMismatchedOwner: PersistentModel {
  @Attribute var name: String
  @Relationship(inverse: \RLMismatchedItem.other) var items: [RLMismatchedItem]
}

class RLMismatchedItem: PersistentModel {
  @Attribute var name: String
  @Relationship var other: RLEmployee?
}

/// An org chart: a manager's reports go with the manager.
class RLStaff: PersistentModel {
  @Attribute var name: String
  @Relationship var manager: RLStaff?
  @Relationship(deleteRule: .cascade, inverse: \RLStaff.manager) var reports: [RLStaff]

  convenience init(name: String) {
    self.init()
    self.name = name
  }
}
