import ModelGraph
import Testing

/// A node of a tree, whose prefetched children are owners of the same prefetch.
final class LTNode: PersistentModel {
  @Attribute var name: String
  @Relationship(inverse: \LTNode.parent) var children: [LTNode]
  @Relationship var parent: LTNode?

  convenience init(name: String) {
    self.init()
    self.name = name
  }
}

/// When a context and its objects are freed once nothing outside them holds either.
///
/// A model object holds its context (so an object kept after its context was dropped still
/// reads and saves); the context holds none of its objects: its unsaved changes live in its
/// session, and an object of theirs that was let go is made again when the context needs one.
/// The related objects of a prefetch are kept by the fetched objects they belong to. So a
/// context dropped with unsaved changes, or after a prefetching fetch, is freed with its
/// session once nothing holds it or any of its objects, and its unsaved changes are discarded.
@Suite("Contexts: freed once dropped")
struct ContextLifetimeTests {
  /// A new in-memory container of the shelf models.
  private func makeContainer() throws -> ModelContainer {
    try ModelContainer(
      for: [PBShelf.self, PBItem.self, PBTag.self, LTNode.self],
      configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
  }

  /// Whether a context on a new container (seeded with a saved shelf of two items when
  /// `seeded`) is freed once `use` has run on it and it is dropped.
  private func isFreed(seeded: Bool = true, after use: (ModelContext) throws -> Void) throws
    -> Bool
  {
    let container = try makeContainer()
    if seeded { try seed(container) }
    weak var dropped: ModelContext?
    do {
      let context = ModelContext(container)
      dropped = context
      try use(context)
    }
    return dropped == nil
  }

  /// Saves a shelf "A" of two items named "item".
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

  /// Shelves with their items prefetched.
  private static var prefetchingItems: FetchDescriptor<PBShelf> {
    var descriptor = FetchDescriptor<PBShelf>()
    descriptor.relationshipKeyPathsForPrefetching = [\.items]
    return descriptor
  }

  /// The names of the saved shelves, sorted, as a new context reads them.
  /// A seeded container and a context holding an insert ("C"), a change ("A" to "B") and a
  /// delete (the shelf's first item) of objects nobody holds any more.
  private func contextWithChangesOfDroppedObjects() throws -> (ModelContainer, ModelContext) {
    let container = try makeContainer()
    try seed(container)
    let context = ModelContext(container)
    do {
      context.insert(PBShelf(name: "C"))
      let shelf = try #require(try context.fetch(FetchDescriptor<PBShelf>()).first)
      shelf.name = "B"
      context.delete(shelf.items[0])
    }
    return (container, context)
  }

  private func savedShelfNames(_ container: ModelContainer) throws -> [String] {
    try ModelContext(container).fetch(FetchDescriptor<PBShelf>()).map(\.name).sorted()
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
    #expect(freed)
  }

  @Test("a context dropped with unsaved changes of every kind is freed, the changes discarded")
  func unsavedChangesAreDiscarded() throws {
    let container = try makeContainer()
    try seed(container)
    weak var dropped: ModelContext?
    do {
      let context = ModelContext(container)
      dropped = context
      let shelf = try #require(try context.fetch(FetchDescriptor<PBShelf>()).first)
      shelf.name = "B"
      context.delete(shelf.items[0])
      context.insert(PBShelf(name: "C"))
      #expect(context.hasChanges)
    }
    #expect(dropped == nil)
    #expect(try savedShelfNames(container) == ["A"])
    #expect(try ModelContext(container).fetchCount(FetchDescriptor<PBItem>()) == 2)
  }

  @Test("a context dropped after a prefetching fetch is freed")
  func prefetchingContextIsFreed() throws {
    let freed = try isFreed { context in
      let shelves = try context.fetch(Self.prefetchingItems)
      #expect(shelves.first?.items.count == 2)
    }
    #expect(freed)
  }

  @Test("a context dropped after prefetching related objects that are owners too is freed")
  func selfPrefetchingContextIsFreed() throws {
    let container = try makeContainer()
    do {
      let context = ModelContext(container)
      let root = LTNode(name: "root")
      context.insert(root)
      root.children = [LTNode(name: "a"), LTNode(name: "b")]
      try context.save()
    }
    weak var dropped: ModelContext?
    do {
      let context = ModelContext(container)
      dropped = context
      var descriptor = FetchDescriptor<LTNode>(sortBy: [SortDescriptor(\.name)])
      descriptor.relationshipKeyPathsForPrefetching = [\.children]
      let nodes = try context.fetch(descriptor)
      #expect(nodes.map { $0.children.count } == [0, 0, 2])
      #expect(nodes[2].children.map(\.name).sorted() == ["a", "b"])
    }
    #expect(dropped == nil)
  }

  @Test("a prefetch's lists are read while its objects are held, also after the context is let go")
  func prefetchedListsWhileHeld() throws {
    let container = try makeContainer()
    try seed(container)
    weak var dropped: ModelContext?
    var shelves: [PBShelf] = []
    do {
      let context = ModelContext(container)
      dropped = context
      shelves = try context.fetch(Self.prefetchingItems)
    }
    #expect(dropped != nil)
    #expect(shelves[0].items.map(\.name) == ["item", "item"])
    #expect(shelves[0].items[0] === shelves[0].items[0])
    shelves = []
    #expect(dropped == nil)
  }

  @Test("an object kept after its context was let go still reads, writes and saves")
  func objectKeepsItsContext() throws {
    let container = try makeContainer()
    weak var dropped: ModelContext?
    var shelf: PBShelf? = PBShelf(name: "A")
    do {
      let context = ModelContext(container)
      dropped = context
      context.insert(shelf!)
    }
    #expect(dropped != nil)
    #expect(shelf?.name == "A")
    shelf?.name = "B"
    #expect(shelf?.modelContext === dropped)
    try shelf?.modelContext?.save()
    #expect(try savedShelfNames(container) == ["B"])
    shelf = nil
    #expect(dropped == nil)
  }

  @Test("a context is kept while any of its fetched objects is, and freed with the last one")
  func contextKeptUntilLastObjectGoes() throws {
    let container = try makeContainer()
    try seed(container)
    weak var dropped: ModelContext?
    var items: [PBItem] = []
    var shelves: [PBShelf] = []
    do {
      let context = ModelContext(container)
      dropped = context
      items = try context.fetch(FetchDescriptor<PBItem>())
      shelves = try context.fetch(FetchDescriptor<PBShelf>())
    }
    #expect(items.count == 2)
    #expect(shelves.count == 1)
    shelves = []
    #expect(dropped != nil)
    items.removeLast()
    #expect(dropped != nil)
    #expect(items[0].name == "item")
    #expect(items[0].shelf?.name == "A")
    items = []
    #expect(dropped == nil)
  }

  @Test("an inserted object kept after a rollback holds its context no longer")
  func rolledBackObjectLetsContextGo() throws {
    let container = try makeContainer()
    weak var dropped: ModelContext?
    let shelf = PBShelf(name: "A")
    do {
      let context = ModelContext(container)
      dropped = context
      context.insert(shelf)
      context.rollback()
    }
    #expect(dropped == nil)
    #expect(shelf.modelContext == nil)
    #expect(shelf.name == "A")
    // Inserted into another context, it holds that one.
    weak var second: ModelContext?
    do {
      let context = ModelContext(container)
      second = context
      context.insert(shelf)
    }
    #expect(second != nil)
    #expect(shelf.modelContext === second)
  }

  @Test("a save publishes the changes of objects nobody holds any more")
  func saveKeepsChangesOfDroppedObjects() throws {
    let (container, context) = try contextWithChangesOfDroppedObjects()
    #expect(context.hasChanges)
    #expect(context.insertedModelsArray.compactMap { ($0 as? PBShelf)?.name } == ["C"])
    #expect(context.changedModelsArray.compactMap { ($0 as? PBShelf)?.name } == ["B"])
    #expect(context.deletedModelsArray.count == 1)
    #expect(context.deletedModelsArray.allSatisfy { $0.isDeleted })
    try context.save()
    #expect(!context.hasChanges)
    #expect(context.insertedModelsArray.isEmpty)
    #expect(context.changedModelsArray.isEmpty)
    #expect(context.deletedModelsArray.isEmpty)
    #expect(try savedShelfNames(container) == ["B", "C"])
    #expect(try ModelContext(container).fetchCount(FetchDescriptor<PBItem>()) == 1)
  }

  @Test("an inserted object let go and fetched again is still new, one object while held")
  func insertedObjectFetchedAgain() throws {
    let container = try makeContainer()
    let context = ModelContext(container)
    context.insert(PBShelf(name: "C"))
    let fetched = try context.fetch(FetchDescriptor<PBShelf>())
    #expect(fetched.map(\.name) == ["C"])
    #expect(fetched[0].hasChanges)
    #expect(fetched[0].modelContext === context)
    #expect(context.insertedModelsArray.first as? PBShelf === fetched[0])
    #expect(try context.fetch(FetchDescriptor<PBShelf>())[0] === fetched[0])
    fetched[0].name = "D"
    try context.save()
    #expect(!fetched[0].hasChanges)
    #expect(try savedShelfNames(container) == ["D"])
  }

  @Test("a changed object let go and fetched again is still changed")
  func changedObjectFetchedAgain() throws {
    let container = try makeContainer()
    try seed(container)
    let context = ModelContext(container)
    try context.fetch(FetchDescriptor<PBShelf>())[0].name = "B"
    let shelf = try context.fetch(FetchDescriptor<PBShelf>())[0]
    #expect(shelf.name == "B")
    #expect(shelf.hasChanges)
    #expect(context.changedModelsArray.first as? PBShelf === shelf)
    context.rollback()
    #expect(shelf.name == "A")
    #expect(!shelf.hasChanges)
    #expect(!context.hasChanges)
  }

  @Test("a rollback discards the changes of objects nobody holds any more")
  func rollbackDiscardsChangesOfDroppedObjects() throws {
    let (container, context) = try contextWithChangesOfDroppedObjects()
    context.rollback()
    #expect(!context.hasChanges)
    #expect(context.insertedModelsArray.isEmpty)
    #expect(context.changedModelsArray.isEmpty)
    #expect(context.deletedModelsArray.isEmpty)
    #expect(try context.fetch(FetchDescriptor<PBShelf>()).map(\.name) == ["A"])
    #expect(try context.fetchCount(FetchDescriptor<PBItem>()) == 2)
    try context.save()
    #expect(try savedShelfNames(container) == ["A"])
  }
}
