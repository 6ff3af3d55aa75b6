import ModelGraph
import Testing

final class RNNote: PersistentModel {
  @Attribute var text: String
  @Relationship var folder: RNFolder? = nil
}

final class RNFolder: PersistentModel {
  @Attribute var name: String
  @Relationship(deleteRule: .cascade, inverse: \RNNote.folder) var notes: [RNNote]
}

/// A to-one relationship with a related object as its initial value.
final class RNBadNote: PersistentModel {
  @Relationship var folder: RNFolder? = RNFolder()
}

@Suite("A to-one relationship declared = nil, as SwiftData code writes it")
struct RelationshipInitialNilTests {
  @Test("it starts nil, takes an object and keeps its inverse")
  func declaredNil() throws {
    let container = try makeInMemoryContainer(RNNote.self, RNFolder.self)
    let context = ModelContext(container)
    let note = RNNote()
    note.text = "milk"
    #expect(note.folder == nil)
    let folder = RNFolder()
    folder.name = "shopping"
    context.insert(note)
    note.folder = folder
    try context.save()
    let fetched = try #require(
      try ModelContext(container).fetch(FetchDescriptor<RNFolder>()).first)
    #expect(fetched.notes.map(\.text) == ["milk"])
    #expect(fetched.notes.first?.folder?.name == "shopping")
  }

  @Test("an initial related object stops the process with a message naming the fix")
  func initialObject() async throws {
    let result = try #require(
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = RNBadNote()
      })
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(message.contains("initial value must be nil"), "\(message)")
  }
}
