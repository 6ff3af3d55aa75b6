/// A private working copy of a store: reads see the session's own changes, ``save(resolving:)`` publishes.
///
/// The session's tables share chunks with the version it started from and copy a chunk the
/// first time they write to it. A save publishes all changes in one step, or none: when another
/// session saved in between, the changes are replayed onto the newer version as edits, and
/// changes that collide with that session's are conflicts (``rebaseOntoLatest(resolving:)``).
/// Not thread-safe: one session belongs to one thread or task at a time.
public final class Session {
  /// The store this session reads and publishes to.
  public let store: Store
  /// The committed version the session's working tables started from.
  @exclusivity(unchecked) public internal(set) var base: StoreVersion {
    didSet {
      storedBaseNumber = base.number
      storedBaseTableCount = base.tables.count
      indexMemo.keepOnly(base.tables)
      committedUniqueViews.keepOnly(base.tables)
      planCache.forgetViews(keeping: base.tables)
    }
  }
  /// ``base``'s number, kept beside it so that a read (on every prefetched relationship read)
  /// takes no dynamic exclusivity check: a session belongs to one thread at a time.
  ///
  /// The getter is never inlined into another module: inlined there, the load came with a
  /// dynamic exclusivity check (`swift_beginAccess`, about 76 instructions) although the
  /// stored property is unchecked.
  public var baseNumber: UInt64 {
    @inline(never) get { storedBaseNumber }
  }
  @exclusivity(unchecked) private var storedBaseNumber: UInt64
  /// The number of ``base``'s tables, kept beside it for the same reason.
  @exclusivity(unchecked) private var storedBaseTableCount: Int
  /// The indexes this session's queries and saves found for its base version's tables.
  let indexMemo: IndexMemo
  /// The committed unique index views this session's small saves checked against.
  let committedUniqueViews = CommittedUniqueViews()
  /// The plans of this session's queries, by shape (kept across saves and refreshes, without
  /// the index views of the version they were made on).
  public let planCache = QueryPlanCache()
  @exclusivity(unchecked) var working: [Table?] = []
  /// The committed table each working table holds the rows of, while it has no changes.
  @exclusivity(unchecked) private var mirrored: [Table?] = []
  @exclusivity(unchecked) var changes = SessionChanges()
  var absorbedForeignChanges = false
  /// Rows allocated from the store ahead of inserts, per entity, to use last first.
  @exclusivity(unchecked) private var reservedRows: [[(row: Int, generation: UInt32)]] = []
  /// Reserved rows that still held an object in the session's view when their turn came.
  @exclusivity(unchecked) private var skippedRows: [[(row: Int, generation: UInt32)]] = []
  /// The number of rows the next reservation of an entity asks for (doubles up to a chunk).
  @exclusivity(unchecked) private var reservationSizes: [Int] = []
  /// Non-optional attribute slots of new objects that nothing has set yet.
  @exclusivity(unchecked) var unsetAttributes: [ObjectKey: SlotSet] = [:]
  /// Deleted objects whose relationship (by slot) has the deny rule, checked by validation.
  var denyChecks: [(key: ObjectKey, slot: Int)] = []
  /// The work lists of cascading deletes, reused from one delete to the next.
  var cascadeScratch = CascadeScratch()
  /// Inverse slots found so far, keyed by owner entity, slot and target entity (-1: none).
  @exclusivity(unchecked) var inverseSlots: [Int: Int] = [:]
  /// The last few of them, looked up before ``inverseSlots`` (a relationship write looks up
  /// one or two, again and again): keys, then slots, in the order met, the oldest replaced.
  @exclusivity(unchecked) var recentInverseSlots = RecentInverseSlots()
  /// Whether a rebase may bring small foreign saves into the working tables in place
  /// (``fastForward(onto:)``) instead of replaying this session's changes; tests turn it off
  /// to compare the two.
  var allowsFastForward = true
  /// The number of rebases that brought foreign saves in place (for tests).
  var fastForwardCount = 0
  /// The name saves of this session carry in their ``CommittedChange/author``.
  public var author: String?
  /// Whether every save records its ``CommittedChange`` in ``lastChange`` even when nobody
  /// subscribes to the store's changes.
  public var recordsChanges = false
  /// The change the last successful save published, when it was recorded (someone subscribed,
  /// or ``recordsChanges``).
  public internal(set) var lastChange: CommittedChange?

  /// ``lastChange``, which the session then forgets (a bulk save's change holds an identifier
  /// per object it wrote).
  public func takeLastChange() -> CommittedChange? {
    defer { lastChange = nil }
    return lastChange
  }
  /// Told about relationship writes and deletions the session's graph edits make.
  public weak var observer: (any SessionObserver)?

  /// Whether rows of new objects this session drops go back to the store; not for a trial copy
  /// (``trialCopy()``), whose rows are the original session's.
  let ownsRows: Bool
  /// The relationship writes and deletions the session's graph edits made, each of which the
  /// ``observer`` is told of: a trial copy whose rebase made none can be adopted
  /// (``adopt(_:)``).
  var graphEditsTold = 0
  /// Rows of new objects a trial copy's rebase dropped, which go back to the store when the
  /// copy is adopted.
  var droppedTrialRows: [(entity: Int, row: Int, generation: UInt32)] = []
  /// The session a trial copy was made of (``trialCopy()``); `nil` for any other session.
  weak var trialOrigin: Session?

  /// A session over the store's current version.
  public init(store: Store) {
    self.store = store
    indexMemo = IndexMemo(store: store)
    let version = store.version
    base = version
    storedBaseNumber = version.number
    storedBaseTableCount = version.tables.count
    ownsRows = true
  }

  /// A copy of this session to try a move on (``rebase(onto:resolving:)``) and read the
  /// result, while this session stays where it is: the same base version and unsaved changes,
  /// its own working tables (sharing chunks with these until either side writes), no
  /// ``observer``. The rows of new objects stay this session's: the copy never gives one back
  /// to the store.
  ///
  /// The copy reads and rebases only; it neither inserts, rolls back nor publishes. This
  /// session then takes over where the copy moved (``adopt(_:)``), or the same rebase, with
  /// the same resolutions, brings it there.
  /// - Complexity: O(columns × chunks / 256) per table with unsaved changes.
  public func trialCopy() -> Session { Session(trialOf: self) }

  private init(trialOf original: Session) {
    store = original.store
    indexMemo = IndexMemo(store: original.store)
    base = original.base
    storedBaseNumber = original.storedBaseNumber
    storedBaseTableCount = original.storedBaseTableCount
    changes = original.changes
    // A table without changes is made again from the base when read (a move resets it).
    let copied = original.working.indices.map {
      original.changes[$0] == nil ? nil : original.working[$0]?.copy()
    }
    working = copied
    mirrored = original.mirrored.indices.map { copied[$0] == nil ? nil : original.mirrored[$0] }
    reservedRows = original.reservedRows.map { _ in [] }
    skippedRows = original.skippedRows.map { _ in [] }
    reservationSizes = original.reservationSizes.map { _ in 0 }
    unsetAttributes = original.unsetAttributes
    denyChecks = original.denyChecks
    inverseSlots = original.inverseSlots
    allowsFastForward = original.allowsFastForward
    ownsRows = false
    trialOrigin = original
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
    if entity >= working.count { ensureCatalog(covers: entity) }
    if let table = working[entity] { return table }
    let table = base.tables[entity].copy()
    working[entity] = table
    mirrored[entity] = base.tables[entity]
    return table
  }

  /// The catalog of the base version, grown first to cover `entity` if it was registered after
  /// the session's base version was taken.
  public func catalog(covering entity: Int) -> SchemaCatalog {
    ensureCatalog(covers: entity)
    return base.catalog
  }

  /// The indices of `entity` and all its descendants, the entity first, in a catalog that
  /// covers `entity` (as ``catalog(covering:)`` makes it), without copying the catalog.
  public func subtree(covering entity: Int) -> [Int] {
    ensureCatalog(covers: entity)
    return base.catalog.subtree(of: entity)
  }

  /// Makes the session's catalog and tables cover `entity` (as ``catalog(covering:)`` does,
  /// without returning the catalog).
  package func cover(_ entity: Int) {
    ensureCatalog(covers: entity)
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
    var row: Int
    var generation: UInt32
    var taken: Bool
    repeat {
      if reservedRows[entity].isEmpty {
        reservationSizes[entity] = min(max(reservationSizes[entity] * 2, 1), 4096)
        reservedRows[entity] = store.allocateRows(
          entity: table.entity, count: reservationSizes[entity])
      }
      (row, generation) = reservedRows[entity].removeLast()
      // A row freed by a save newer than this session's base still holds its old object here
      // (live, or deleted by this session and not saved, its values in place): keep it for
      // later and take another, so the object stays readable until a rebase and the new one
      // inherits none of its values or relationships.
      taken = rowIsTaken(entity: entity, row: row, in: table)
      if taken { skippedRows[entity].append((row, generation)) }
    } while taken
    table.activate(row: row, generation: generation)
    changes[entity, default: TableChanges()].inserted.append(row)
    return ObjectKey(entity: entity, row: row, generation: generation)
  }

  /// Whether `row` of `entity` holds an object in the working table `table` or in the base
  /// version.
  private func rowIsTaken(entity: Int, row: Int, in table: Table) -> Bool {
    table.isAlive(row) || (entity < base.tables.count && base.tables[entity].isAlive(row))
  }

  /// Whether `row` of `entity` holds an object inserted by this session and not yet saved.
  public func isInserted(entity: Int, row: Int) -> Bool {
    let table = table(entity)
    guard table.isAlive(row) else { return false }
    return holdsNewObject(row: row, entity: entity, in: table)
  }

  /// Whether the live `row` of `entity`'s working table `table` holds an object this session
  /// inserted (its stamp is not the base version's).
  @inline(__always)
  private func holdsNewObject(row: Int, entity: Int, in table: Table) -> Bool {
    let committed = base.tables[entity]
    return row >= committed.rowCount || committed.stamps[row] != table.stamps[row]
  }

  /// Records that attribute `slot` of the object in `row` was written in the working table
  /// (nothing for a new object, whose row is saved whole).
  func noteAttributeWrite(entity: Int, row: Int, slot: Int) {
    guard !isInserted(entity: entity, row: row) else { return }
    noteUpdate(entity: entity, row: row, slot: slot)
  }

  /// Records that attribute `slot` of the saved object in `row` was written.
  func noteUpdate(entity: Int, row: Int, slot: Int) {
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
    let wasInserted = holdsNewObject(row: row, entity: entity, in: table)
    table.stamps[row] = key.generation << 1
    table.liveCount -= 1
    if !wasInserted {
      changes[entity, default: TableChanges()].deleted.append(row: row, generation: key.generation)
    } else if !unsetAttributes.isEmpty {
      unsetAttributes[key] = nil
    }
  }

  /// Whether the row of `key` still belongs to its object in the working tables: alive, or
  /// deleted by this session and not yet saved.
  public func holds(_ key: ObjectKey) -> Bool {
    let entity = Int(key.entity)
    guard entity < working.count || entity < store.catalog.entities.count else { return false }
    let table = table(entity)
    let row = Int(key.row)
    return row < table.rowCount && table.generation(of: row) == key.generation
  }

  /// Whether `key` names an object that lives in the working tables.
  public func contains(_ key: ObjectKey) -> Bool {
    let entity = Int(key.entity)
    // Only a key of an entity the session has not seen yet consults the store (and its lock).
    guard entity < working.count || entity < store.catalog.entities.count else { return false }
    return table(entity).contains(key)
  }

  /// Discards every unsaved change; the working tables return to the base version.
  ///
  /// - Returns: The keys of new objects that were discarded.
  @discardableResult
  public func rollback() -> [ObjectKey] {
    let discarded = discardInserted()
    returnReservedRows()
    resetWorkingTables { base.tables[$0] }
    changes.removeAll()
    unsetAttributes = [:]
    denyChecks = []
    return discarded
  }

  /// Moves to the store's newest version, or to `target` (a version of this store no older
  /// than the session's), when the session has no unsaved changes.
  public func refreshIfClean(to target: StoreVersion? = nil) {
    if let target, target.number <= base.number { return }
    if target == nil {
      // The store's newest version, as a number and a table count read without its lock:
      // when they are the base's, there is nothing to move to.
      let mark = store.visibleMark
      if mark.number == storedBaseNumber && mark.tableCount == storedBaseTableCount { return }
    }
    let latest = target ?? store.version
    guard latest.number != base.number || latest.tables.count != base.tables.count else { return }
    guard !hasChanges else { return }
    // What is left is objects inserted and deleted again: give their rows back, so no change
    // names a row of the older working tables once they hold the newer version.
    if !changes.isEmpty { _ = rollback() }
    absorbedForeignChanges = absorbedForeignChanges || latest.number != base.number
    base = latest
    extendWorkingTables()
    resetWorkingTables { base.tables[$0] }
  }

  /// Publishes every change as a new store version, all at once, replaying the changes onto
  /// newer versions other sessions published first.
  ///
  /// Callers that validate changes should instead loop over ``rebaseOntoLatest(resolving:)``,
  /// their validation and ``publish()``, so validation sees the version it publishes onto.
  /// - Parameter resolve: Settles each conflict with a save published since the session's base
  ///   version; by default every conflict refuses the save.
  /// - Returns: The keys of the objects whose deletion was published.
  /// - Throws: ``ConflictError`` when a conflict is not resolved, the persistence's error
  ///   (``JournalError`` for a journal) when it refuses the changes; nothing is published.
  @discardableResult
  public func save(
    resolving resolve: (Conflict) -> ConflictResolution = { _ in .reject }
  ) throws -> [ObjectKey] {
    while true {
      try rebaseOntoLatest(resolving: resolve)
      if let deleted = try publish() { return deleted }
    }
  }

  /// Publishes every change as a new store version if no other session published since the
  /// session's base version.
  ///
  /// On a store with a ``StorePersistence`` (a journal, a database), the changes are committed
  /// to it inside the publishing step (so commits are in order) and the call returns once they
  /// are as durable as it promises. Other sessions and subscribers see the new version only
  /// then (``Store/version``); saves of other sessions meanwhile build on it
  /// (``Store/latestCommitted``), so saves waiting for one sync share it.
  /// - Returns: The keys of the objects whose deletion was published, or `nil` when the base is
  ///   stale (call ``rebaseOntoLatest(resolving:)``, validate again, and retry).
  /// - Throws: The persistence's error (``JournalError`` for a journal) when the changes
  ///   cannot be committed (nothing is published and the changes stay unsaved) or made durable
  ///   (this session holds the version, but it may not survive a crash and no other session
  ///   is shown it).
  public func publish() throws -> [ObjectKey]? {
    precondition(ownsRows, "a trial copy of a session does not publish")
    lastChange = nil
    guard hasChanges else {
      _ = rollback()
      refreshIfClean()
      return []
    }
    var deletedKeys: [ObjectKey] = []
    packAppendedChunks()
    sortDeletionsByRow()
    // Built outside the lock when wanted; the lock only checks the base, so the version is known.
    var committed =
      recordsChanges || store.changeHub.isObserved || store.history.isRecording
      ? committedChange(version: base.number + 1) : nil
    let outcome: (version: StoreVersion?, ticket: UInt64?, persistence: (any StorePersistence)?)?
    do {
      outcome = try commitAndStage(&committed, deletedKeys: &deletedKeys)
    } catch {
      // The base may be a version committed by another save and not shown yet: its values
      // must not reach the caller (in the error, or through this session afterwards) before
      // they are durable.
      store.waitUntilShown(base.number)
      throw error
    }
    guard let outcome else { return nil }
    guard let version = outcome.version else {
      // Behind what was committed elsewhere: bring it in; the caller rebases and retries.
      try outcome.persistence?.catchUp()
      return nil
    }
    lastChange = committed
    base = version
    resetWorkingTables { base.tables[$0] }
    changes.removeAll()
    unsetAttributes = [:]
    denyChecks = []
    returnReservedRows()
    if let ticket = outcome.ticket, let persistence = outcome.persistence {
      try persistence.waitUntilDurable(ticket)
      // Durable: other sessions and subscribers see the version (and those before it) now.
      store.showVersions(durableThrough: ticket)
    }
    return deletedKeys
  }

  /// The publishing step of ``publish()``: under the store's lock, checks the base, commits the
  /// changes to the persistence and stages the new version (shown once its commit is durable).
  ///
  /// - Returns: The version staged and the commit's ticket; no version when the persistence
  ///   is behind; `nil` when the base is stale.
  private func commitAndStage(
    _ committed: inout CommittedChange?, deletedKeys: inout [ObjectKey]
  ) throws -> (version: StoreVersion?, ticket: UInt64?, persistence: (any StorePersistence)?)? {
    try store.state.withLock {
      state throws -> (
        version: StoreVersion?, ticket: UInt64?, persistence: (any StorePersistence)?
      )? in
      let current = state.version
      guard current.number == base.number else { return nil }
      var tables = current.tables
      var released: [(entity: Int, row: Int, generation: UInt32)] = []
      var written: [StoreCommit.TableRows] = []
      if state.persistence != nil { written.reserveCapacity(changes.entityCount) }
      for (entity, change) in changes where !change.isEmpty {
        let mine = working[entity]!
        // Without rows to retire (which writes every column of the row), the new version
        // keeps the columns this session did not write as they are.
        let retires =
          !change.deleted.isEmpty || change.inserted.contains { !mine.isAlive($0) }
        let target =
          !retires && entity < tables.count
          ? mine.publishedCopy(over: tables[entity]) : mine.copy()
        var retired: [Int] = []
        for row in change.inserted where !mine.isAlive(row) {
          let generation = mine.generation(of: row)
          if target.retire(row: row, generation) { retired.append(row) }
          released.append((entity, row, generation &+ 1))
        }
        // By row: the rows retired come out sorted (as clearing them wants), and so do the
        // rows released, which the row pool then need not sort.
        if !change.deleted.isEmpty { retired.reserveCapacity(retired.count + change.deleted.count) }
        let newRetired = retired.count
        for packed in change.deleted.packedByRow() {
          let (row, generation) = PackedRowSort.unpack(packed)
          guard target.retire(row: row, generation) else { continue }
          deletedKeys.append(ObjectKey(entity: entity, row: row, generation: generation))
          released.append((entity, row, generation &+ 1))
          retired.append(row)
        }
        // Rows of new objects deleted again come first and are few: only they may be out of
        // order.
        if newRetired > 0 { PackedRowSort.sort(rows: &retired) }
        target.clearRows(retired)
        // Only a small save's rows are noted: the note lives as long as the version, and a
        // large save's index carry compares chunks at about the cost of reading its rows.
        let noted =
          entity < tables.count
          && change.inserted.count + change.updated.count + change.deleted.count
            + change.relationshipsUpdated.count <= TableChangeNote.largestNoted
        let writtenRows = noted || state.persistence != nil ? change.writtenRows : []
        if entity < tables.count {
          target.changeNote =
            noted
            ? TableChangeNote(
              previous: tables[entity].serial, rows: writtenRows,
              following: tables[entity].changeNote) : nil
          tables[entity] = target
        } else {
          tables += current.catalog.entities[tables.count..<entity].map { Table(entity: $0) }
          tables.append(target)
        }
        if state.persistence != nil {
          written.append(
            StoreCommit.TableRows(
              entity: entity, table: target, rows: writtenRows.map { Int($0) }))
        }
      }
      let version = StoreVersion(
        number: current.number + 1, catalog: current.catalog, tables: tables, over: current)
      // A subscriber may have arrived (or recording resumed) since the check outside.
      if committed == nil, store.changeHub.isObserved || store.history.isRecording {
        committed = committedChange(version: version.number)
      }
      var ticket: UInt64?
      if let persistence = state.persistence {
        // A change the retention drops at once (a bulk load's) is not written: a record
        // without one empties the history through its version, which is the same.
        // The versions committed and not shown yet record their changes first.
        let dropped =
          store.history.isRecording
          ? committed.map { change in
            var recording = state.pending.compactMap(\.change)
            recording.append(change)
            return store.history.droppedThrough(afterRecording: recording)
          } : nil
        let recorded = dropped.map { $0 < version.number } == true ? committed : nil
        let commit = StoreCommit(
          number: version.number, catalog: current.catalog, previous: current, tables: written,
          change: recorded, historyDroppedThrough: dropped ?? version.number)
        switch try persistence.commit(commit) {
        case .behind: return (nil, nil, persistence)
        case .committed(let issued): ticket = issued
        }
      }
      store.rowPool.release(released)
      store.stage(version, ticket: ticket, change: committed, in: &state)
      return (version, ticket, state.persistence)
    }
  }

  /// Sorts each table's deleted rows by row, once, before the save reads them in that order
  /// (its change record, then its commit).
  private func sortDeletionsByRow() {
    for entity in changes.keys where !(changes[entity]?.deleted.isEmpty ?? true) {
      changes[entity, default: TableChanges()].deleted.sortByRow()
    }
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
    if ownsRows { store.releaseUncommitted(rows) }
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

  /// Makes each working table hold the rows of `source(entity)`, without this session's
  /// changes; a table with no changes that already holds that table's rows is left alone.
  ///
  /// - Parameter keepingChanged: Whether tables with changes are left as they are.
  /// - Complexity: O(columns × chunks) per table reset.
  func resetWorkingTables(to source: (Int) -> Table, keepingChanged: Bool = false) {
    for (entity, table) in working.enumerated() {
      guard let table else { continue }
      if keepingChanged, let change = changes[entity], !change.isEmpty { continue }
      let target = source(entity)
      if changes[entity] == nil, let mirror = mirrored[entity], mirror === target { continue }
      table.reset(to: target)
      mirrored[entity] = target
    }
  }

  /// Gives every entity of the base version a (lazily made) working table slot.
  func extendWorkingTables() {
    let added = max(0, base.tables.count - working.count)
    working += Array(repeating: nil, count: added)
    mirrored += Array(repeating: nil, count: added)
    reservedRows += Array(repeating: [], count: added)
    skippedRows += Array(repeating: [], count: added)
    reservationSizes += Array(repeating: 0, count: added)
  }

  /// Gives rows reserved and not used back to the store.
  private func returnReservedRows() {
    for entity in skippedRows.indices where !skippedRows[entity].isEmpty {
      store.returnUnused(skippedRows[entity], entity: base.catalog.entities[entity])
      skippedRows[entity] = []
    }
    for entity in reservedRows.indices where !reservedRows[entity].isEmpty {
      store.returnUnused(reservedRows[entity], entity: base.catalog.entities[entity])
      reservedRows[entity] = []
    }
    // The next save starts reserving one row again (a large reservation is a bulk insert, which
    // reuses freed rows; see `RowAllocator`), also after a save that used every row it reserved.
    for entity in reservationSizes.indices { reservationSizes[entity] = 0 }
  }

  deinit {
    returnReservedRows()
  }
}
