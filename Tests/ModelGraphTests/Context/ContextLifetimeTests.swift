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
  /// Whether a context on a new container (seeded with a saved shelf of two items when
  /// `seeded`) is freed once `use` has run on it and it is dropped.
  private func isFreed(seeded: Bool = true, after use: (ModelContext) throws -> Void) throws
    -> Bool
  {
    let container = try ModelContainer(
      for: [PBShelf.self, PBItem.self, PBTag.self],
      configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
    if seeded {
      let context = ModelContext(container)
      let shelf = PBShelf(name: "A")
      context.insert(shelf)
      shelf.items = [PBItem(), PBItem()].map {
        $0.name = "item"
        return $0
      }
      try context.save()
    }
    weak var dropped: ModelContext?
    do {
      let context = ModelContext(container)
      dropped = context
      try use(context)
    }
    return dropped == nil
  }

  /// Shelves with their items prefetched.
  private static var prefetchingItems: FetchDescriptor<PBShelf> {
    var descriptor = FetchDescriptor<PBShelf>()
    descriptor.relationshipKeyPathsForPrefetching = [\.items]
    return descriptor
  }

  @Test("a context that fetched, changed and saved is freed with its objects")
  func savedContextIsFreed() throws {
    let freed = try isFreed { context in
      let shelves = try context.fetch(FetchDescriptor<PBShelf>())
      shelves[0].name = "B"
      #expect(shelves[0].items.count == 2)
      try context.save()
    }
    #expect(freed)
  }

  @Test(
    "a context that prefetched, then saved or rolled back, is freed",
    arguments: [true, false])
  func prefetchingContextThatSavedIsFreed(saves: Bool) throws {
    let freed = try isFreed { context in
      let shelf = try #require(try context.fetch(Self.prefetchingItems).first)
      #expect(shelf.items.count == 2)
      shelf.name = "B"
      if saves { try context.save() } else { context.rollback() }
    }
    #expect(freed)
  }

  @Test("a context dropped with unsaved changes is freed")
  func unsavedContextIsFreed() throws {
    let freed = try isFreed(seeded: false) { $0.insert(PBShelf(name: "A")) }
    withKnownIssue("a changed object and its context hold each other") {
      #expect(freed)
    }
  }

  @Test("a context dropped after a prefetching fetch is freed")
  func prefetchingContextIsFreed() throws {
    let freed = try isFreed { context in
      let shelves = try context.fetch(Self.prefetchingItems)
      #expect(shelves.first?.items.count == 2)
    }
    withKnownIssue("the prefetched objects and their context hold each other") {
      #expect(freed)
    }
  }
}
