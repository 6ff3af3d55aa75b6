import ModelGraph
import Testing

/// A saved library with two books, two members, one history and, if asked, an event.
private struct LibraryFixture {
  let container: ModelContainer
  let context: ModelContext
  let library: RLLibrary
  let books: [RLBook]
  let members: [RLMember]
  let history: RLHistory
  let events: [RLEvent]

  init(withEvent: Bool) throws {
    container = try makeInMemoryContainer(RLLibrary.self)
    context = ModelContext(container)
    library = RLLibrary(name: "Central")
    context.insert(library)
    books = [RLBook(title: "Dune", isbn: "111"), RLBook(title: "Emma", isbn: "222")]
    members = [RLMember(name: "Ann"), RLMember(name: "Bo")]
    history = RLHistory(note: "opened")
    events = withEvent ? [RLEvent(title: "Reading")] : []
    library.books = books
    library.members = members
    library.histories = [history]
    library.events = events
    try context.save()
  }

  /// Counts per class as another context sees the store.
  func storedCounts() throws -> [Int] {
    let other = ModelContext(container)
    return [
      try other.fetchCount(FetchDescriptor<RLLibrary>()),
      try other.fetchCount(FetchDescriptor<RLBook>()),
      try other.fetchCount(FetchDescriptor<RLMember>()),
      try other.fetchCount(FetchDescriptor<RLEvent>()),
      try other.fetchCount(FetchDescriptor<RLHistory>()),
    ]
  }
}

@Suite("Relationships: a library's delete rules")
struct RelationshipLibraryTests {
  @Test(
    "deleting a library deletes its books (cascade), before and after the save")
  func booksCascade() throws {
    let fixture = try LibraryFixture(withEvent: false)
    fixture.context.delete(fixture.library)
    #expect(fixture.books.allSatisfy { $0.isDeleted })
    #expect(try fixture.context.fetchCount(FetchDescriptor<RLBook>()) == 0)
    try fixture.context.save()
    #expect(try fixture.storedCounts() == [0, 0, 2, 0, 1])
  }

  @Test("deleting a library keeps its members, with no library (nullify)")
  func membersNullify() throws {
    let fixture = try LibraryFixture(withEvent: false)
    fixture.context.delete(fixture.library)
    #expect(fixture.members.allSatisfy { !$0.isDeleted && $0.library == nil })
    #expect(fixture.members.allSatisfy { $0.hasChanges })
    try fixture.context.save()
    let members = try ModelContext(fixture.container).fetch(FetchDescriptor<RLMember>())
    #expect(members.count == 2)
    #expect(members.allSatisfy { $0.library == nil })
  }

  @Test("deleting a library leaves its histories untouched (noAction)")
  func historiesNoAction() throws {
    let fixture = try LibraryFixture(withEvent: false)
    fixture.context.delete(fixture.library)
    // noAction: the history is not changed by the deletion; its reference now names a deleted
    // object, which reads as nil.
    #expect(!fixture.history.hasChanges)
    #expect(!fixture.context.changedModelsArray.contains { $0 === fixture.history })
    #expect(!fixture.history.isDeleted)
    #expect(fixture.history.library == nil)
    try fixture.context.save()
    let histories = try ModelContext(fixture.container).fetch(FetchDescriptor<RLHistory>())
    #expect(histories.map(\.note) == ["opened"])
    #expect(histories.first?.library == nil)
  }

  @Test("a dangling noAction reference never resolves to a later object in the reused row")
  func danglingReferenceStaysDead() throws {
    let fixture = try LibraryFixture(withEvent: false)
    fixture.context.delete(fixture.library)
    try fixture.context.save()
    let newer = RLLibrary(name: "Newer")
    fixture.context.insert(newer)
    try fixture.context.save()
    #expect(fixture.history.library == nil)
    let fresh = ModelContext(fixture.container)
    let history = try #require(try fresh.fetch(FetchDescriptor<RLHistory>()).first)
    #expect(history.library == nil)
    #expect(try fresh.fetch(FetchDescriptor<RLLibrary>()).map(\.name) == ["Newer"])
  }

  @Test(
    "a library with events cannot be deleted: the save throws and the store is unchanged")
  func eventsDeny() throws {
    let fixture = try LibraryFixture(withEvent: true)
    let version = fixture.container.store.version.number
    let libraryID = fixture.library.persistentModelID
    fixture.context.delete(fixture.library)

    let error = try #require(throws: ModelError.self) { try fixture.context.save() }
    #expect(error.code == .validationFailed)
    #expect(error.violations.map(\.entity) == ["RLLibrary"])
    #expect(error.violations.map(\.property) == ["events"])
    #expect(error.violations.first?.identifier == libraryID)
    #expect(fixture.container.store.version.number == version)
    #expect(try fixture.storedCounts() == [1, 2, 2, 1, 1])

    // The pending changes stay: the library and its books are still deleted here.
    #expect(fixture.context.hasChanges)
    #expect(fixture.library.isDeleted)
    #expect(fixture.books.allSatisfy { $0.isDeleted })
    #expect(fixture.context.deletedModelsArray.count == 3)
    #expect(try fixture.context.fetchCount(FetchDescriptor<RLLibrary>()) == 0)
  }

  @Test("rollback after a denied save brings back the library and every relationship")
  func denyThenRollback() throws {
    let fixture = try LibraryFixture(withEvent: true)
    fixture.context.delete(fixture.library)
    #expect(throws: ModelError.self) { try fixture.context.save() }
    fixture.context.rollback()

    let library = fixture.library
    #expect(!library.isDeleted)
    #expect(!fixture.context.hasChanges)
    #expect(library.books.map(\.title) == ["Dune", "Emma"])
    #expect(library.members.map(\.name) == ["Ann", "Bo"])
    #expect(library.events.map(\.title) == ["Reading"])
    #expect(library.histories.map(\.note) == ["opened"])
    #expect(fixture.books.allSatisfy { !$0.isDeleted && $0.library === library })
    #expect(fixture.members.allSatisfy { $0.library === library })
    #expect(fixture.history.library === library)
    try fixture.context.save()
    #expect(try fixture.storedCounts() == [1, 2, 2, 1, 1])
  }

  @Test("once its events are deleted, the library can be deleted")
  func denySucceedsAfterEventsGo() throws {
    let fixture = try LibraryFixture(withEvent: true)
    for event in fixture.events { fixture.context.delete(event) }
    #expect(fixture.library.events.isEmpty)
    fixture.context.delete(fixture.library)
    try fixture.context.save()
    #expect(try fixture.storedCounts() == [0, 0, 2, 0, 1])
  }

  @Test("once its events move to another library, the library can be deleted")
  func denySucceedsAfterEventsMove() throws {
    let fixture = try LibraryFixture(withEvent: true)
    let branch = RLLibrary(name: "Branch")
    fixture.context.insert(branch)
    branch.events = fixture.events
    #expect(fixture.library.events.isEmpty)
    fixture.context.delete(fixture.library)
    try fixture.context.save()
    let other = ModelContext(fixture.container)
    let events = try other.fetch(FetchDescriptor<RLEvent>())
    #expect(events.map { $0.library?.name } == ["Branch"])
  }

  @Test("after a denied save, moving the events away (changes still pending) lets it succeed")
  func denyFixedWhilePending() throws {
    let fixture = try LibraryFixture(withEvent: true)
    fixture.context.delete(fixture.library)
    #expect(throws: ModelError.self) { try fixture.context.save() }
    let branch = RLLibrary(name: "Branch")
    fixture.context.insert(branch)
    branch.events = fixture.events
    try fixture.context.save()
    #expect(try fixture.storedCounts() == [1, 0, 2, 1, 1])
  }
}
