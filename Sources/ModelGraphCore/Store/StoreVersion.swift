/// One committed state of a store: its catalog and a frozen table per entity.
///
/// A version is an immutable value: a reader that holds one sees exactly that state while
/// later saves publish newer versions beside it.
public struct StoreVersion: Sendable {
  /// Increases by one with every save that changed data.
  public let number: UInt64
  /// The entities, by index.
  public let catalog: SchemaCatalog
  /// One frozen table per entity of the catalog, by entity index.
  public let tables: [Table]

  /// A version of `tables`, which it freezes: none of them is written again.
  ///
  /// - Complexity: O(chunks / 64) over all tables, to clear their columns' ownership bits.
  init(number: UInt64, catalog: SchemaCatalog, tables: [Table]) {
    self.number = number
    self.catalog = catalog
    self.tables = tables
    for table in tables { table.freeze() }
  }

  /// The version a save publishes over `previous`: `tables` holds `previous`'s own tables
  /// (frozen when that version was made) except at `written`, the save's new tables, which it
  /// freezes. A small save then costs O(tables written) here, not O(every column).
  ///
  /// - Complexity: O(chunks / 64) over the tables written.
  init(
    number: UInt64, catalog: SchemaCatalog, tables: [Table], over previous: StoreVersion,
    written: [Int]
  ) {
    assert(
      tables.indices.allSatisfy {
        written.contains($0) || ($0 < previous.tables.count && tables[$0] === previous.tables[$0])
          || tables[$0].rowCount == 0
      }, "a table the save did not write differs from the previous version's")
    self.number = number
    self.catalog = catalog
    self.tables = tables
    for entity in written { tables[entity].freeze() }
    // Tables made for entities the catalog gained are new and empty.
    for entity in previous.tables.count..<max(previous.tables.count, tables.count)
    where !written.contains(entity) {
      tables[entity].freeze()
    }
  }

  /// The number of live objects of `entity` alone, or of it and its descendants when `deep`.
  ///
  /// - Complexity: O(number of entities in the subtree).
  public func count(of entity: Int, deep: Bool) -> Int {
    let entities = deep ? catalog.subtree(of: entity) : [entity]
    return entities.reduce(0) { $0 + tables[$1].liveCount }
  }
}
