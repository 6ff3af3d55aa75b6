import Foundation
import ModelGraph

/// The notes of the automatic migration tests, version 1, and changes of it that open
/// without a plan (`Auto…`) or are refused (`Refused…`). The entity is `Note` in each.
enum NotesV1 {
  class Note: PersistentModel {
    @Attribute var title: String
    @Attribute var body: String
    @Attribute var views = 0
  }

  /// Writes a store of two notes, "a" (1 view) and "b" (2 views), and returns their
  /// identifiers.
  @discardableResult
  static func write(_ url: URL) throws -> [PersistentIdentifier] {
    let container = try ModelContainer(for: Note.self, configurations: ModelConfiguration(url: url))
    let context = ModelContext(container)
    let notes = [("a", 1), ("b", 2)].map { title, views in
      let note = Note()
      note.title = title
      note.body = "body \(title)"
      note.views = views
      context.insert(note)
      return note
    }
    try context.save()
    try container.snapshot()
    return notes.map(\.persistentModelID)
  }
}

/// Two attributes added: one with an initial value, one optional.
enum AutoAddedAttributes {
  class Note: PersistentModel {
    @Attribute var title: String
    @Attribute var body: String
    @Attribute var views = 0
    @Attribute var isPinned = false
    @Attribute var due: Date?
  }
}

/// `body` removed.
enum AutoRemovedAttribute {
  class Note: PersistentModel {
    @Attribute var title: String
    @Attribute var views = 0
  }
}

/// `title` renamed `headline` through `originalName`.
enum AutoRenamedAttribute {
  class Note: PersistentModel {
    @Attribute(originalName: "title") var headline: String
    @Attribute var body: String
    @Attribute var views = 0
  }
}

/// A class added, and a relationship to it added to `Note`.
enum AutoAddedClassAndRelationship {
  class Note: PersistentModel {
    @Attribute var title: String
    @Attribute var body: String
    @Attribute var views = 0
    @Relationship(inverse: \Folder.notes) var folder: Folder?
  }

  class Folder: PersistentModel {
    @Attribute var name: String
    @Relationship var notes: [Note]
  }
}

/// `title` renamed `headline` without `originalName`: a removal beside an addition of the
/// same type.
enum RefusedRename {
  class Note: PersistentModel {
    @Attribute var headline: String
    @Attribute var body: String
    @Attribute var views = 0
  }
}

/// `views` becomes a `String`.
enum RefusedTypeChange {
  class Note: PersistentModel {
    @Attribute var title: String
    @Attribute var body: String
    @Attribute var views: String
  }
}

/// A required attribute added without an initial value.
enum RefusedRequiredAttribute {
  class Note: PersistentModel {
    @Attribute var title: String
    @Attribute var body: String
    @Attribute var views = 0
    @Attribute var priority: Int
  }
}
