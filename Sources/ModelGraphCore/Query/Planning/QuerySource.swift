/// What a query reads: the tables of every class, their committed versions, and the indexes
/// declared for each class.
public struct QuerySource {
  /// The store the tables belong to (their indexes are shared per store).
  public let store: Store
  /// The classes.
  public let catalog: SchemaCatalog
  /// The table read for each class, by entity index: a session's working tables (with its
  /// pending changes) or committed ones.
  public let tables: [Table]
  /// The frozen committed version of each table, by entity index; indexes are built for these.
  public let committedTables: [Table]
  /// The indexes of each class's table, by entity index.
  public let indexes: [[IndexDefinition]]
  /// Whether ``tables`` may differ from ``committedTables`` (a session with unsaved changes);
  /// when `false`, indexes of the committed versions are used as they are.
  public let hasPendingChanges: Bool
  /// Whether only objects that exist in both ``tables`` and ``committedTables`` count: a
  /// session's fetch that ignores its unsaved inserts (and, as ever, its deletes).
  public let onlyCommittedObjects: Bool
  /// The reading session's memo of the indexes it found, if the source reads a session.
  let indexMemo: IndexMemo?
  /// The reading session's plans, if the source reads a session.
  let planCache: QueryPlanCache?

  /// A source made of explicit tables.
  public init(
    store: Store, catalog: SchemaCatalog, tables: [Table], committedTables: [Table],
    indexes: [[IndexDefinition]], hasPendingChanges: Bool = true,
    onlyCommittedObjects: Bool = false
  ) {
    self.init(
      store: store, catalog: catalog, tables: tables, committedTables: committedTables,
      indexes: indexes, hasPendingChanges: hasPendingChanges,
      onlyCommittedObjects: onlyCommittedObjects, indexMemo: nil, planCache: nil)
  }

  private init(
    store: Store, catalog: SchemaCatalog, tables: [Table], committedTables: [Table],
    indexes: [[IndexDefinition]], hasPendingChanges: Bool, onlyCommittedObjects: Bool,
    indexMemo: IndexMemo?, planCache: QueryPlanCache?
  ) {
    self.indexMemo = indexMemo
    self.planCache = planCache
    self.store = store
    self.catalog = catalog
    self.tables = tables
    self.committedTables = committedTables
    self.indexes = indexes
    self.hasPendingChanges = hasPendingChanges
    self.onlyCommittedObjects = onlyCommittedObjects
  }

  /// The working tables of `session`, with its unsaved changes; when `includePendingChanges`
  /// is `false`, objects it inserted and has not saved do not count (objects it deleted never
  /// do, and values are always the session's).
  ///
  /// - Parameter indexes: The indexes of each class's table.
  /// - Complexity: O(entities) once the session's working tables exist.
  public init(
    session: Session, includePendingChanges: Bool,
    indexes: (ResolvedEntity) -> [IndexDefinition]
  ) {
    let catalog = session.catalog
    let entities = catalog.entities.indices
    let committed = entities.map { session.committedTable($0) }
    self.init(
      store: session.store, catalog: catalog, tables: entities.map { session.table($0) },
      committedTables: committed, indexes: catalog.entities.map(indexes),
      hasPendingChanges: session.hasChanges, onlyCommittedObjects: !includePendingChanges,
      indexMemo: session.indexMemo, planCache: session.planCache)
  }
}
