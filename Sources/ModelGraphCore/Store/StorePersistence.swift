/// Where a store keeps its committed versions beyond memory: the seam between the engine and
/// its persistence.
///
/// A store without one lives in memory only. The snapshot-and-journal files (``Journal``) and
/// the PostgreSQL store (module `ModelGraphPostgreSQL`) implement it. Sessions, contexts and the
/// runner never see which one a store has: a save hands its ``StoreCommit`` to
/// ``commit(_:)`` inside the store's publishing step and publishes the version only when that
/// returns ``StoreCommitOutcome/committed(ticket:)``; changes committed elsewhere reach the
/// store through ``Store/publishForeign(author:_:)`` as new versions.
public protocol StorePersistence: AnyObject, Sendable {
  /// Makes a save's changes durable, or starts to; called with the store's lock held, in
  /// commit order, so it must not call back into the store.
  ///
  /// - Returns: ``StoreCommitOutcome/committed(ticket:)`` (the ticket, if any, goes to
  ///   ``waitUntilDurable(_:)``), or ``StoreCommitOutcome/behind`` when changes committed
  ///   elsewhere must be brought in first: nothing was written, the store calls ``catchUp()``
  ///   and the session rebases and tries again.
  /// - Throws: Any error; nothing is then published and the changes stay unsaved.
  func commit(_ commit: StoreCommit) throws -> StoreCommitOutcome

  /// Returns once the commit of `ticket` is as durable as promised; called outside the lock.
  func waitUntilDurable(_ ticket: UInt64) throws

  /// Publishes into the store the changes committed elsewhere that it has not seen yet;
  /// called outside the store's lock after ``commit(_:)`` answered ``StoreCommitOutcome/behind``.
  func catchUp() throws

  /// Rows for `count` new objects of `entity` (last first), or `nil` to let the store hand
  /// out its own; called with the store's row lock held, not the lock commits run under, so
  /// it may run while ``commit(_:)`` does.
  func allocateRows(entity: ResolvedEntity, count: Int) -> [(row: Int, generation: UInt32)]?

  /// Takes back rows ``allocateRows(entity:count:)`` gave that no object ever used; returns
  /// `false` when the store hands out its own rows.
  func returnRows(_ rows: [(row: Int, generation: UInt32)], entity: ResolvedEntity) -> Bool

  /// Whether the row of an object deleted by a save may hold a new object of this process;
  /// `false` for a store that other processes share, where a row names one object forever.
  var reusesFreedRows: Bool { get }

  /// Ends the persistence's work (files, connections, threads); later commits throw.
  func close()
}

extension StorePersistence {
  /// Nothing to bring in: only this process commits.
  public func catchUp() throws {}

  /// The store hands out its own rows.
  public func allocateRows(entity: ResolvedEntity, count: Int) -> [(
    row: Int, generation: UInt32
  )]? { nil }

  /// The store takes its rows back.
  public func returnRows(_ rows: [(row: Int, generation: UInt32)], entity: ResolvedEntity) -> Bool {
    false
  }

  /// Rows are reused.
  public var reusesFreedRows: Bool { true }

  /// Nothing to end.
  public func close() {}
}

/// What a persistence is told about one save.
public struct StoreCommit: Sendable {
  /// One entity's part of a save: its published table and the rows the save wrote.
  public struct TableRows: Sendable {
    /// The entity's index in ``StoreCommit/catalog``.
    public var entity: Int
    /// The table as the save publishes it; a written row that holds no live object was deleted.
    public var table: Table
    /// The rows the save inserted, changed or deleted, ascending.
    public var rows: [Int]

    /// The part of `entity` whose `rows` were written in `table`.
    public init(entity: Int, table: Table, rows: [Int]) {
      self.entity = entity
      self.table = table
      self.rows = rows
    }
  }

  /// The number of the version the save publishes.
  public var number: UInt64
  /// The catalog of that version.
  public var catalog: SchemaCatalog
  /// The version the save publishes onto.
  public var previous: StoreVersion
  /// The tables the save changed.
  public var tables: [TableRows]
  /// The change the store's history records for the save; `nil` when it records none.
  public var change: CommittedChange?
  /// The newest version the history no longer keeps once it recorded ``change``.
  public var historyDroppedThrough: UInt64

  /// The save publishing version `number` of `catalog` onto `previous`, writing `tables`,
  /// which the history records as `change`.
  public init(
    number: UInt64, catalog: SchemaCatalog, previous: StoreVersion, tables: [TableRows],
    change: CommittedChange? = nil, historyDroppedThrough: UInt64 = 0
  ) {
    self.number = number
    self.catalog = catalog
    self.previous = previous
    self.tables = tables
    self.change = change
    self.historyDroppedThrough = historyDroppedThrough
  }
}

/// The answer of ``StorePersistence/commit(_:)``.
public enum StoreCommitOutcome: Sendable {
  /// Written; publish, then wait for the ticket (if any) outside the lock.
  case committed(ticket: UInt64?)
  /// Changes committed elsewhere come first: nothing was written.
  case behind
}
