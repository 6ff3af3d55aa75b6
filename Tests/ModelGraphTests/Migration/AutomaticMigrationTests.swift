import Foundation
import ModelGraph
import Testing

/// Opening a file whose schema differs from the classes only in changes that need no decision
/// migrates it without a plan, writes it back and reports what changed; any other difference
/// is refused, named, and the file left as it was.
@Suite("Migration: automatic lightweight migration")
struct AutomaticMigrationTests {
  private func open(_ type: any PersistentModel.Type, _ url: URL) throws -> ModelContainer {
    try ModelContainer(for: type, configurations: ModelConfiguration(url: url))
  }

  /// Opens `url` (written by ``NotesV1``) with `type`, checks the file was rewritten, reopens
  /// it and checks nothing is left to migrate; returns a context of the reopened container.
  private func migrate(_ type: any PersistentModel.Type, _ url: URL, expecting: [SchemaDifference])
    throws -> ModelContext
  {
    let before = try Data(contentsOf: url)
    do {
      let container = try open(type, url)
      #expect(container.automaticMigration == expecting)
      #expect(try Data(contentsOf: url) != before)
    }
    let reopened = try open(type, url)
    #expect(reopened.automaticMigration.isEmpty)
    return ModelContext(reopened)
  }

  @Test("added attributes take their initial value or nil")
  func addedAttributes() throws {
    let scratch = try SnapshotScratch()
    let identifiers = try NotesV1.write(scratch.store)
    let context = try migrate(
      AutoAddedAttributes.Note.self, scratch.store,
      expecting: [
        SchemaDifference(entity: "Note", property: "isPinned", change: .attributeAdded),
        SchemaDifference(entity: "Note", property: "due", change: .attributeAdded),
      ])
    let notes = try context.fetch(
      FetchDescriptor<AutoAddedAttributes.Note>(sortBy: [SortDescriptor(\.title)]))
    #expect(notes.map(\.persistentModelID) == identifiers)
    #expect(notes.map(\.title) == ["a", "b"])
    #expect(notes.map(\.views) == [1, 2])
    #expect(notes.map(\.isPinned) == [false, false])
    #expect(notes.map(\.due) == [nil, nil])
  }

  @Test("a removed attribute is dropped; the others keep their values")
  func removedAttribute() throws {
    let scratch = try SnapshotScratch()
    try NotesV1.write(scratch.store)
    let context = try migrate(
      AutoRemovedAttribute.Note.self, scratch.store,
      expecting: [SchemaDifference(entity: "Note", property: "body", change: .attributeRemoved)])
    let notes = try context.fetch(
      FetchDescriptor<AutoRemovedAttribute.Note>(sortBy: [SortDescriptor(\.title)]))
    #expect(notes.map(\.title) == ["a", "b"])
    #expect(notes.map(\.views) == [1, 2])
  }

  @Test("a rename through originalName keeps the values")
  func renamedAttribute() throws {
    let scratch = try SnapshotScratch()
    try NotesV1.write(scratch.store)
    let context = try migrate(
      AutoRenamedAttribute.Note.self, scratch.store,
      expecting: [
        SchemaDifference(
          entity: "Note", property: "headline", change: .attributeRenamed(from: "title"))
      ])
    let notes = try context.fetch(
      FetchDescriptor<AutoRenamedAttribute.Note>(sortBy: [SortDescriptor(\.headline)]))
    #expect(notes.map(\.headline) == ["a", "b"])
  }

  @Test("an added class and an added relationship: stored objects start unrelated")
  func addedClassAndRelationship() throws {
    let scratch = try SnapshotScratch()
    try NotesV1.write(scratch.store)
    let context = try migrate(
      AutoAddedClassAndRelationship.Note.self, scratch.store,
      expecting: [
        SchemaDifference(entity: "Note", property: "folder", change: .relationshipAdded),
        SchemaDifference(entity: "Folder", change: .entityAdded),
      ])
    let notes = try context.fetch(
      FetchDescriptor<AutoAddedClassAndRelationship.Note>(sortBy: [SortDescriptor(\.title)]))
    #expect(notes.map(\.folder) == [nil, nil])
    let folder = AutoAddedClassAndRelationship.Folder()
    folder.name = "inbox"
    context.insert(folder)
    notes[0].folder = folder
    try context.save()
    #expect(folder.notes.map(\.title) == ["a"])
  }

  @Test("a read-only open reports the migration and leaves the file as it was")
  func readOnly() throws {
    let scratch = try SnapshotScratch()
    try NotesV1.write(scratch.store)
    let before = try Data(contentsOf: scratch.store)
    let container = try ModelContainer(
      for: AutoRemovedAttribute.Note.self,
      configurations: ModelConfiguration(url: scratch.store, allowsSave: false))
    #expect(
      container.automaticMigration == [
        SchemaDifference(entity: "Note", property: "body", change: .attributeRemoved)
      ])
    #expect(
      try ModelContext(container).fetchCount(FetchDescriptor<AutoRemovedAttribute.Note>()) == 2)
    #expect(try Data(contentsOf: scratch.store) == before)
  }

  @Test("a rename without originalName needs a plan and names the fix; the file stays")
  func refusedRename() throws {
    let scratch = try SnapshotScratch()
    try NotesV1.write(scratch.store)
    let before = try Data(contentsOf: scratch.store)
    let error = try #require(throws: MigrationError.self) {
      _ = try open(RefusedRename.Note.self, scratch.store)
    }
    #expect(error.code == .schemaMismatch)
    #expect(
      error.differences == [
        SchemaDifference(entity: "Note", property: "title", change: .attributeRemoved),
        SchemaDifference(entity: "Note", property: "headline", change: .attributeAdded),
      ])
    #expect(error.message.contains("@Attribute(originalName: \"title\") var headline"))
    #expect(try Data(contentsOf: scratch.store) == before)
  }

  @Test("a type change needs a plan and is named; the file stays")
  func refusedTypeChange() throws {
    let scratch = try SnapshotScratch()
    try NotesV1.write(scratch.store)
    let before = try Data(contentsOf: scratch.store)
    let error = try #require(throws: MigrationError.self) {
      _ = try open(RefusedTypeChange.Note.self, scratch.store)
    }
    #expect(error.code == .schemaMismatch)
    #expect(
      error.differences == [
        SchemaDifference(
          entity: "Note", property: "views",
          change: .attributeTypeChanged(from: "Int", to: "String"))
      ])
    #expect(error.description.contains("Note.views: attribute type Int became String"))
    #expect(try Data(contentsOf: scratch.store) == before)
  }

  @Test("a required attribute without an initial value cannot be filled; the file stays")
  func refusedRequiredAttribute() throws {
    let scratch = try SnapshotScratch()
    try NotesV1.write(scratch.store)
    let before = try Data(contentsOf: scratch.store)
    let error = try #require(throws: MigrationError.self) {
      _ = try open(RefusedRequiredAttribute.Note.self, scratch.store)
    }
    #expect(error.code == .notLightweight)
    #expect(
      error.differences == [
        SchemaDifference(entity: "Note", property: "priority", change: .attributeAdded)
      ])
    #expect(error.message.contains("no initial value"))
    #expect(try Data(contentsOf: scratch.store) == before)
  }
}
