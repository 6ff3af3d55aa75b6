import ModelGraph

/// A library: deleting it deletes its books, keeps its members (without a library), is refused
/// while it has events, and leaves its histories as they are.
class Library: PersistentModel {
  @Attribute var name: String
  @Relationship(deleteRule: .cascade, inverse: \Book.library) var books: [Book]
  @Relationship(deleteRule: .nullify, inverse: \Member.library) var members: [Member]
  @Relationship(deleteRule: .deny, inverse: \Event.library) var events: [Event]
  @Relationship(deleteRule: .noAction, inverse: \History.library) var histories: [History]

  convenience init(name: String) {
    self.init()
    self.name = name
  }
}

/// A book of a library; its ISBN stays readable in the deletion record.
class Book: PersistentModel {
  @Attribute var title: String
  @Attribute(.preserveValueOnDeletion) var isbn: String
  @Relationship var library: Library?

  convenience init(title: String, isbn: String) {
    self.init()
    self.title = title
    self.isbn = isbn
  }
}

/// A member of a library.
class Member: PersistentModel {
  @Attribute var name: String
  @Relationship var library: Library?

  convenience init(name: String) {
    self.init()
    self.name = name
  }
}

/// An event a library hosts.
class Event: PersistentModel {
  @Attribute var title: String
  @Relationship var library: Library?

  convenience init(title: String) {
    self.init()
    self.title = title
  }
}

/// A note in a library's history.
class History: PersistentModel {
  @Attribute var note: String
  @Relationship var library: Library?

  convenience init(note: String) {
    self.init()
    self.note = note
  }
}
