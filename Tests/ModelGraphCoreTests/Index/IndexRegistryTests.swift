import Testing

@testable import ModelGraphCore

/// The process-wide registry of indexes built for frozen table versions.
@Suite("Index: the registry keeps the two newest versions of each index")
struct IndexRegistryTests {
  /// What the registry holds: an index stands in for its table version.
  final class Built {
    let table: Table
    let carriedFrom: Table?
    init(table: Table, carriedFrom: Table?) {
      self.table = table
      self.carriedFrom = carriedFrom
    }
  }

  /// Asks `registry` for the index of `table`; `made` counts the builds.
  static func index(
    _ registry: IndexRegistry, _ store: Store, _ table: Table, made: inout [Table?]
  ) -> Built {
    var source: Table??
    let built = registry.index(
      store: store, table: table, definition: HashIndexVersionTests.daysIndex
    ) { (from: (table: Table, index: Built)?) -> Built in
      source = .some(from?.table)
      return Built(table: table, carriedFrom: from?.table)
    }
    if let source { made.append(source) }
    return built
  }

  @Test("a version asked again is a hit; a new one is carried from the newest; a third evicts")
  func keepsTwoNewest() throws {
    let registry = IndexRegistry()
    let store = try Fixture.makeStore()
    let entity = store.catalog.entities[Fixture.trip]
    let versions = (0..<4).map { _ in Table(entity: entity) }
    var made: [Table?] = []

    let first = Self.index(registry, store, versions[0], made: &made)
    #expect(made.count == 1 && made[0] == nil, "the first version is built from nothing")
    #expect(Self.index(registry, store, versions[0], made: &made) === first)
    #expect(made.count == 1, "asked again: a hit")

    _ = Self.index(registry, store, versions[1], made: &made)
    #expect(made.count == 2 && made[1] === versions[0], "carried from the newest built")
    _ = Self.index(registry, store, versions[2], made: &made)
    #expect(made.count == 3 && made[2] === versions[1], "carried from the newest built")

    // Versions 1 and 2 are held; version 0 was let go.
    _ = Self.index(registry, store, versions[1], made: &made)
    _ = Self.index(registry, store, versions[2], made: &made)
    #expect(made.count == 3, "the two newest are hits")
    _ = Self.index(registry, store, versions[0], made: &made)
    #expect(made.count == 4 && made[3] === versions[2], "the evicted one is carried again")
    // Now 2 and 0 are held, 1 went.
    _ = Self.index(registry, store, versions[2], made: &made)
    #expect(made.count == 4)
    _ = Self.index(registry, store, versions[1], made: &made)
    #expect(made.count == 5 && made[4] === versions[0])
  }

  @Test("the indexes of a released store are let go, and another store's are never used")
  func storesAreSeparate() throws {
    let registry = IndexRegistry()
    let kept = try Fixture.makeStore()
    let entity = kept.catalog.entities[Fixture.trip]
    let table = Table(entity: entity)
    var made: [Table?] = []
    weak var releasedIndex: Built?
    do {
      let released = try Fixture.makeStore()
      releasedIndex = Self.index(registry, released, table, made: &made)
      #expect(releasedIndex != nil)
    }
    // The other store's index for the very same table is not this store's; building this
    // one from nothing also sweeps the released store's entries out.
    _ = Self.index(registry, kept, table, made: &made)
    #expect(made.count == 2 && made[1] == nil)
    #expect(releasedIndex == nil, "the released store's index was freed")
  }
}
