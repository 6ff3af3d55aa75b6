/// A private working copy of a store: reads see the session's own changes, ``save()`` publishes.
///
/// The session's tables share chunks with the version it started from and copy a chunk the
/// first time they write to it. A save publishes all changes in one step, or none: when another
/// session saved in between, the changes are replayed onto the newer version (last writer wins
/// per attribute). Not thread-safe: one session belongs to one thread or task at a time.
public final class Session {
  /// The store this session reads and publishes to.
  public let store: Store
  /// The committed version the session's working tables started from.
  public private(set) var base: StoreVersion
  @exclusivity(unchecked) private var working: [Table?] = []
  var changes: [Int: TableChanges] = [:]
  private var absorbedForeignChanges = false
  /// Rows allocated from the store ahead of inserts, per entity, to use last first.
  private var reservedRows: [[(row: Int, generation: UInt32)]] = []
  /// The number of rows the next reservation of an entity asks for (doubles up to a chunk).
  private var reservationSizes: [Int] = []

  /// A session over the store's current version.
  public init(store: Store) {
    self.store = store
    base = store.version
  }

  /// The catalog of the base version (grown to the store's when an entity is registered later).
  public var catalog: SchemaCatalog { base.catalog }

  /// Whether anything was inserted, changed or deleted since the last save or rollback.
  public var hasChanges: Bool {
    changes.contains { entity, change in
      !change.updated.isEmpty || !change.relationshipsUpdated.isEmpty || !change.deleted.isEmpty
        || change.inserted.contains { working[entity]?.isAlive($0) ?? false }
    }
  }

  /// Whether the last save or refresh brought in changes other sessions had published.
  ///
  /// The owner of handles bound to rows uses this to find objects deleted elsewhere; reading
  /// it resets it.
  public func takeForeignChangesFlag() -> Bool {
    defer { absorbedForeignChanges = false }
    return absorbedForeignChanges
  }

  /// The session's working table of `entity`, with its unsaved changes.
  ///
  /// The same object is returned for the session's whole life.
  public func table(_ entity: Int) -> Table {
    ensureCatalog(covers: entity)
    if let table = working[entity] { return table }
    let table = base.tables[entity].copy()
    working[entity] = table
    return table
  }

  /// The catalog of the base version, grown first to cover `entity` if it was registered after
  /// the session's base version was taken.
  public func catalog(covering entity: Int) -> SchemaCatalog {
    ensureCatalog(covers: entity)
    return base.catalog
  }

  /// The table of `entity` in the base version, without the session's changes.
  public func committedTable(_ entity: Int) -> Table {
    ensureCatalog(covers: entity)
    return base.tables[entity]
  }

  /// Creates an empty live row for a new object of `entity`.
  ///
  /// - Returns: The new object's key.
  public func insert(entity: Int) -> ObjectKey {
    let table = table(entity)
    if reservedRows[entity].isEmpty {
      reservationSizes[entity] = min(max(reservationSizes[entity] * 2, 1), 4096)
      reservedRows[entity] = store.allocateRows(entity: entity, count: reservationSizes[entity])
    }
    let (row, generation) = reservedRows[entity].removeLast()
    table.activate(row: row, generation: generation)
    changes[entity, default: TableChanges()].inserted.append(row)
    return ObjectKey(entity: entity, row: row, generation: generation)
  }

  /// Whether `row` of `entity` holds an object inserted by this session and not yet saved.
  public func isInserted(entity: Int, row: Int) -> Bool {
    let table = table(entity)
    guard table.isAlive(row) else { return false }
    let committed = base.tables[entity]
    return row >= committed.rowCount || committed.stamps[row] != table.stamps[row]
  }

  /// Records that attribute `slot` of the object in `row` was written in the working table.
  public func noteAttributeWrite(entity: Int, row: Int, slot: Int) {
    guard !isInserted(entity: entity, row: row) else { return }
    changes[entity, default: TableChanges()].updated[row, default: SlotSet()].insert(slot)
  }

  /// Records that a relationship of the object in `row` was written in the working table.
  public func noteRelationshipWrite(entity: Int, row: Int) {
    guard !isInserted(entity: entity, row: row) else { return }
    changes[entity, default: TableChanges()].relationshipsUpdated.insert(row)
  }

  /// Deletes the object `key` names from the working table; nothing happens if it is gone.
  public func delete(_ key: ObjectKey) {
    let entity = Int(key.entity)
    let row = Int(key.row)
    let table = table(entity)
    guard table.contains(key) else { return }
    let wasInserted = isInserted(entity: entity, row: row)
    table.stamps[row] = key.generation << 1
    table.liveCount -= 1
    if !wasInserted {
      changes[entity, default: TableChanges()].deleted[row] = key.generation
    }
  }

  /// Whether `key` names an object that lives in the working tables.
  public func contains(_ key: ObjectKey) -> Bool {
    let entity = Int(key.entity)
    guard entity < store.catalog.entities.count else { return false }
    return table(entity).contains(key)
  }

  /// Discards every unsaved change; the working tables return to the base version.
  ///
  /// - Returns: The keys of new objects that were discarded.
  @discardableResult
  public func rollback() -> [ObjectKey] {
    let discarded = discardInserted()
    returnReservedRows()
    for (entity, table) in working.enumerated() {
      table?.reset(to: base.tables[entity])
    }
    changes = [:]
    return discarded
  }

  /// Moves to the store's newest version when the session has no unsaved changes.
  public func refreshIfClean() {
    guard !hasChanges else { return }
    let latest = store.version
    guard latest.number != base.number || latest.tables.count != base.tables.count else { return }
    absorbedForeignChanges = absorbedForeignChanges || latest.number != base.number
    base = latest
    for (entity, table) in working.enumerated() {
      table?.reset(to: base.tables[entity])
    }
    extendWorkingTables()
  }

  /// Publishes every change as a new store version, all at once.
  ///
  /// - Returns: The keys of the objects whose deletion was published.
  @discardableResult
  public func save() -> [ObjectKey] {
    guard hasChanges else {
      _ = rollback()
      refreshIfClean()
      return []
    }
    var deletedKeys: [ObjectKey] = []
    var freedRows: [(entity: Int, row: Int, generation: UInt32)] = []
    let published = store.state.withLock { state -> StoreVersion in
      let current = state.version
      var tables = current.tables
      let rebasing = current.number != base.number
      if rebasing { absorbedForeignChanges = true }
      for (entity, change) in changes where !change.isEmpty {
        let mine = working[entity]!
        let target = rebasing ? rebase(change, of: mine, onto: tables[entity]) : mine.copy()
        for row in change.inserted where !mine.isAlive(row) {
          let generation = mine.generation(of: row)
          if !rebasing { _ = target.retire(row: row, generation) }
          freedRows.append((entity, row, generation))
        }
        for (row, generation) in change.deleted where target.retire(row: row, generation) {
          deletedKeys.append(ObjectKey(entity: entity, row: row, generation: generation))
          state.allocators[entity].release(row: row, generation: generation &+ 1)
        }
        tables[entity] = target
      }
      for item in freedRows {
        state.allocators[item.entity].release(row: item.row, generation: item.generation &+ 1)
      }
      let version = StoreVersion(
        number: current.number + 1, catalog: current.catalog, tables: tables)
      state.version = version
      return version
    }
    base = published
    changes = [:]
    returnReservedRows()
    for (entity, table) in working.enumerated() {
      table?.reset(to: base.tables[entity])
    }
    return deletedKeys
  }

  /// A copy of `committed` (newer than the session's base) with `change` replayed onto it.
  private func rebase(_ change: TableChanges, of mine: Table, onto committed: Table) -> Table {
    let target = committed.copy()
    for row in change.inserted where mine.isAlive(row) {
      target.activate(row: row, generation: mine.generation(of: row))
      target.copyRow(row, from: mine)
    }
    for (row, slots) in change.updated where mine.isAlive(row) && target.isAlive(row) {
      guard target.generation(of: row) == mine.generation(of: row) else { continue }
      target.copyAttributes(slots, row: row, from: mine)
    }
    for row in change.relationshipsUpdated where mine.isAlive(row) && target.isAlive(row) {
      guard target.generation(of: row) == mine.generation(of: row) else { continue }
      target.copyRelationships(row, from: mine)
    }
    return target
  }

  private func discardInserted() -> [ObjectKey] {
    var discarded: [ObjectKey] = []
    var rows: [(entity: Int, row: Int, generation: UInt32)] = []
    for (entity, change) in changes {
      guard let table = working[entity] else { continue }
      for row in change.inserted {
        let generation = table.generation(of: row)
        if table.isAlive(row) {
          discarded.append(ObjectKey(entity: entity, row: row, generation: generation))
        }
        rows.append((entity, row, generation))
      }
    }
    store.releaseUncommitted(rows)
    return discarded
  }

  private func ensureCatalog(covers entity: Int) {
    if entity < working.count { return }
    if entity >= base.tables.count {
      let latest = store.version
      let fresh = latest.catalog.entities.dropFirst(base.tables.count).map { Table(entity: $0) }
      base = StoreVersion(number: base.number, catalog: latest.catalog, tables: base.tables + fresh)
    }
    extendWorkingTables()
  }

  /// Gives every entity of the base version a (lazily made) working table slot.
  private func extendWorkingTables() {
    let added = max(0, base.tables.count - working.count)
    working += Array(repeating: nil, count: added)
    reservedRows += Array(repeating: [], count: added)
    reservationSizes += Array(repeating: 0, count: added)
  }

  /// Gives rows reserved and not used back to the store.
  private func returnReservedRows() {
    for entity in reservedRows.indices where !reservedRows[entity].isEmpty {
      store.returnUnused(reservedRows[entity], entity: entity)
      reservedRows[entity] = []
      reservationSizes[entity] = 0
    }
  }

  deinit {
    returnReservedRows()
  }
}
