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

  /// The version a save publishes over `previous`: each table of `tables` is either
  /// `previous`'s own table for its entity (frozen when that version was made) or a new one
  /// (the save's, or one made for an entity the catalog gained), which it freezes. A small save
  /// then costs O(tables written) in freezing, not O(every column). The indexes built for
  /// `previous`'s table of an entity are carried to the new one (``IndexShelf``).
  ///
  /// - Complexity: O(tables), plus O(chunks / 64) over the new tables, plus carrying each
  ///   index built for a replaced table (O(rows written) after a small save).
  init(number: UInt64, catalog: SchemaCatalog, tables: [Table], over previous: StoreVersion) {
    self.number = number
    self.catalog = catalog
    self.tables = tables
    for entity in tables.indices
    where entity >= previous.tables.count || tables[entity] !== previous.tables[entity] {
      tables[entity].freeze()
      if entity < previous.tables.count {
        IndexShelf.carry(from: previous.tables[entity], to: tables[entity])
      }
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
