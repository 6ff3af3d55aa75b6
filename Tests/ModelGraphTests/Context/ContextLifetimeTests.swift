import ModelGraph
import Testing

/// When a context and its objects are freed once nothing outside them holds either.
///
/// A model object holds its context (so an object kept after its context was dropped still
/// reads); a context holds the objects it must keep: those with unsaved changes, and the related
/// objects of its last prefetch. Those two kinds are a reference cycle today, so such a context
/// is never freed, nor its session and the store version it reads (nor, on PostgreSQL, its
/// connections), until a save or a rollback lets the objects go. The known issues below record
/// that; each fails as "known issue not recorded" once it is fixed, so the mark is then removed.
@Suite("Contexts: freed once dropped")
struct ContextLifetimeTests {
  private func container() throws -> ModelContainer {
    try ModelContainer(
      for: [PBShelf.self, PBItem.self, PBTag.self],
      configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
  }

  /// A saved shelf with two items, in `container`.
  private func seed(_ container: ModelContainer) throws {
    let context = ModelContext(container)
    let shelf = PBShelf(name: "A")
    context.insert(shelf)
    shelf.items = [PBItem(), PBItem()].map {
      $0.name = "item"
      return $0
    }
    try context.save()
  }

  @Test("a context that fetched, changed and saved is freed with its objects")
  func savedContextIsFreed() throws {
    let container = try container()
    try seed(container)
    weak var dropped: ModelContext?
    do {
      let context = ModelContext(container)
      dropped = context
      let shelves = try context.fetch(FetchDescriptor<PBShelf>())
      shelves[0].name = "B"
      #expect(shelves[0].items.count == 2)
      try context.save()
    }
    #expect(dropped == nil)
  }

  @Test(
    "a context that prefetched, then saved or rolled back, is freed",
    arguments: [true, false])
  func prefetchingContextThatSavedIsFreed(saves: Bool) throws {
    let container = try container()
    try seed(container)
    weak var dropped: ModelContext?
    do {
      let context = ModelContext(container)
      dropped = context
      var descriptor = FetchDescriptor<PBShelf>()
      descriptor.relationshipKeyPathsForPrefetching = [\.items]
      let shelf = try #require(try context.fetch(descriptor).first)
      #expect(shelf.items.count == 2)
      shelf.name = "B"
      if saves { try context.save() } else { context.rollback() }
    }
    #expect(dropped == nil)
  }

  @Test("a context dropped with unsaved changes is freed")
  func unsavedContextIsFreed() throws {
    let container = try container()
    weak var dropped: ModelContext?
    do {
      let context = ModelContext(container)
      dropped = context
      context.insert(PBShelf(name: "A"))
    }
    withKnownIssue("a changed object and its context hold each other") {
      #expect(dropped == nil)
    }
  }

  @Test("a context dropped after a prefetching fetch is freed")
  func prefetchingContextIsFreed() throws {
    let container = try container()
    try seed(container)
    weak var dropped: ModelContext?
    do {
      let context = ModelContext(container)
      dropped = context
      var descriptor = FetchDescriptor<PBShelf>()
      descriptor.relationshipKeyPathsForPrefetching = [\.items]
      #expect(try context.fetch(descriptor).first?.items.count == 2)
    }
    withKnownIssue("the prefetched objects and their context hold each other") {
      #expect(dropped == nil)
    }
  }
}
