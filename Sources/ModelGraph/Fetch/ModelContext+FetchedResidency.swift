internal import ModelGraphCore
internal import ModelGraphPostgreSQL

extension ModelContext {
  /// The PostgreSQL store of the container, when it keeps only fetched objects in memory.
  var fetchedOnlyStore: PostgreSQLStore? {
    guard let store = container.store.persistence as? PostgreSQLStore, store.keepsOnlyFetched
    else { return nil }
    return store
  }

  /// With a store that keeps only fetched objects in memory: runs `request` in PostgreSQL
  /// first. When `counting` and the whole request compiles to SQL, PostgreSQL counts its
  /// objects (before the offset and limit) and nothing is read; otherwise, when `loading`, the
  /// objects it selects are brought into memory and the context moves to the version holding
  /// them. Returns the SQL and the count; both `nil` for any other store (one lock taken).
  ///
  /// A context moves to the version PostgreSQL counted at, too. One with unsaved changes moves
  /// with its changes replayed onto the version (as a save does), and the SQL selects what the
  /// context's view may need: its window widened by the number of rows of the request's
  /// classes the context changed (with the objects that reach, along the paths of
  /// relationships the request reads, an object it changed). Those that memory cannot name
  /// (past a relationship without inverse) the SQL selects by a condition, loads, and widens
  /// the window by, in one snapshot. A count leaves out the rows, and the objects such a
  /// condition selects (loaded in the count's snapshot), in PostgreSQL, and
  /// ``FetchedRun/countedInMemory`` names them for the caller to count over the context's
  /// view (see ``FetchedPendingRows``). Both are of the rows changed once the context moved,
  /// which the move, tried first on a copy of the session (``Session/trialCopy()``), tells:
  /// the SQL runs again when the move changed others, and the context itself moves only onto
  /// the version of the run that settles. From the third run on the SQL loads without a
  /// window (a count then loads the objects and counts them in memory), and runs again only
  /// while the move changes what that selects.
  ///
  /// When a fetch with unsaved changes throws, the context is as it was before it: at the
  /// same version, with the same registered objects and unsaved changes, and no observer
  /// told of anything. What the SQL loaded stays in the store's memory, as every fetched
  /// object does, for the context's next fetch to move onto.
  /// - Throws: ``ModelError`` with code ``ModelError/Code/conflict`` when the unsaved changes
  ///   collide with saves made elsewhere since the context read its objects (and its
  ///   ``mergePolicy`` does not settle them); ``PostgreSQLError`` with code `server` when
  ///   saves made elsewhere kept changing what it selects for eight runs; or as
  ///   ``PostgreSQLStore/makeResident(for:holders:)`` and ``PostgreSQLStore/count(for:excluding:)``
  ///   throw.
  func runFetched(_ request: QueryRequest, loading: Bool, counting: Bool) throws -> FetchedRun {
    guard let store = fetchedOnlyStore else { return FetchedRun() }
    guard loading else {
      return FetchedRun(sql: store.sqlFetch(for: request, catalog: session.catalog))
    }
    guard session.hasChanges else {
      if counting, let counted = try store.count(for: request) {
        // The count may have caught the store up with other saves: read what it counted.
        try moveOntoLoaded(counted.version)
        return FetchedRun(count: counted.count)
      }
      let loaded = try store.makeResident(for: request)
      try moveOntoLoaded(loaded.version)
      return FetchedRun(sql: loaded.sql)
    }
    var catalog = session.catalog(covering: request.entity)
    var pending = FetchedPendingRows(request, session: session)
    // The database reads at the store's newest version, and the context's changes move onto
    // the version read, so that what it reads next agrees with what was counted or loaded
    // (even when the store caught up with other saves meanwhile). The move can change
    // more rows than the SQL allowed for (a deletion's cascade replayed over an object added
    // elsewhere): the SQL then runs again for the rows changed after the move. From the third
    // attempt on, it loads without a window, which no number of changed rows can outgrow.
    // Each collision the moves meet is put to the merge policy once: the moves of later runs,
    // and the context's own, take the same answer.
    var answers: [Conflict: ConflictResolution] = [:]
    let resolve = conflictResolver()
    func answer(_ conflict: Conflict) -> ConflictResolution {
      if let known = answers[conflict] { return known }
      let resolution = resolve(conflict)
      answers[conflict] = resolution
      return resolution
    }
    var attempt = 0
    while true {
      attempt += 1
      try fetchedStepHook?(.sql(attempt: attempt))
      let windowless = attempt >= Self.windowlessAttempt
      var counted: (count: Int, version: StoreVersion)?
      // Objects named by a condition (past a relationship without inverse), loaded and left
      // out of the database's count, to be counted in memory.
      var held: Set<UInt64> = []
      if counting && !windowless && pending.coversRequest {
        let excluded = pending.rows.map { (catalog.entities[$0.entity].name, $0.row) }
        if let holders = pending.holders {
          if let found = try store.count(for: request, excluding: excluded, holders: holders) {
            counted = (found.count, found.version)
            held = Set(
              found.held.compactMap { object in
                catalog.entity(named: object.entity).map {
                  FetchedPendingRows.key(entity: $0.index, row: object.row)
                }
              })
          }
        } else {
          counted = try store.count(for: request, excluding: excluded)
        }
      }
      let (fetch, count, version): (SQLFetch?, Int?, StoreVersion)
      if let counted {
        (fetch, count, version) = (nil, counted.count, counted.version)
      } else {
        // Objects named by a condition (past a relationship without inverse) come with the
        // window, which widens by how many the database holds.
        let loaded = try store.makeResident(
          for: widened(request, by: pending, windowless: windowless),
          holders: windowless || !pending.coversRequest ? nil : pending.holders)
        (fetch, count, version) = (loaded.sql, nil, loaded.version)
      }
      try fetchedStepHook?(.move)
      // The move is tried on a copy of the session: the context itself moves only onto the
      // version of the run that settles (taking over the copy's move, or, when that told of
      // deletions or relationship writes, by the same rebase with the same resolutions), so a
      // fetch that gives up (or is refused) leaves it where it was.
      let trial = session.trialCopy()
      try rebaseWithUnsavedChanges(trial, onto: version, by: answer)
      let moved = FetchedPendingRows(request, session: trial)
      if windowless ? moved.selectsAs(pending) : moved.matches(pending) {
        let movedOn = trial.base.number > session.base.number
        if session.adopt(trial) {
          if movedOn { dropHandlesDeletedElsewhere() }
        } else {
          try rebaseWithUnsavedChanges(session, onto: version, by: answer)
        }
        return FetchedRun(
          sql: fetch, count: count,
          countedInMemory: count.map { _ in moved.counted.union(held) })
      }
      guard attempt < Self.mostFetchedAttempts else {
        throw PostgreSQLError(
          .server,
          message: "other saves kept changing the objects a fetch with unsaved changes reads "
            + "(\(attempt) attempts): the context is as it was before the fetch; try again")
      }
      catalog = trial.catalog(covering: request.entity)
      pending = moved
    }
  }

  /// The attempt of a fetch with unsaved changes from which its SQL loads without a window.
  private static let windowlessAttempt = 3
  /// The most attempts a fetch with unsaved changes makes before it gives up.
  private static let mostFetchedAttempts = 8

  /// `request` as the SQL of a fetch with unsaved changes runs it: its window widened by the
  /// `pending` rows (and, in the SQL, by the objects the pending rows'
  /// ``FetchedPendingRows/holders`` select, loaded with it), or, when it reads what they do
  /// not cover (related objects the walk gives up on), every object its covered conjuncts
  /// select, each conjunct or'd with the holders.
  /// With `windowless`, it always selects the second way, whose objects do not depend on how
  /// many rows are pending.
  private func widened(
    _ request: QueryRequest, by pending: FetchedPendingRows, windowless: Bool
  ) -> QueryRequest {
    var widened = request
    if !windowless && pending.coversRequest {
      // The SQL takes the first offset + limit objects: each pending row can take a place
      // of the window in the database and leave it in the context's view.
      widened.limit = request.limit.map {
        QueryRequest.clippedEnd(offset: $0, limit: pending.count)
      }
    } else {
      var parts: [QueryExpression] = []
      if case .and(let all) = pending.coveredPredicate {
        parts = all
      } else if let predicate = pending.coveredPredicate {
        parts = [predicate]
      }
      // Each conjunct on its own, so that one without SQL leaves the others in it.
      if let holders = pending.holders { parts = parts.map { .or([$0, holders]) } }
      let predicate = parts.isEmpty ? nil : parts.count == 1 ? parts[0] : QueryExpression.and(parts)
      (widened.predicate, widened.sort) = (predicate, [])
      (widened.offset, widened.limit) = (0, nil)
      (widened.shapeIdentity, widened.slotted) = (nil, nil)
    }
    return widened
  }

  /// Moves the context, which has no unsaved changes, to `version`, which holds what a fetch
  /// loaded or counted (the store may have caught up past it meanwhile).
  private func moveOntoLoaded(_ version: StoreVersion) throws {
    try fetchedStepHook?(.move)
    refreshIfClean(to: version)
  }

  /// Moves `moving` (the context's session, or a ``Session/trialCopy()`` of it) to `version`,
  /// which holds what a fetch loaded or counted, by replaying its unsaved changes onto it;
  /// the context's handles of objects deleted elsewhere are dropped when it is the context's.
  ///
  /// - Throws: ``ModelError`` with code ``ModelError/Code/conflict`` when the changes collide
  ///   with saves made elsewhere that the store caught up with (and `resolve` refuses one);
  ///   `moving` is left as it was.
  private func rebaseWithUnsavedChanges(
    _ moving: Session, onto version: StoreVersion, by resolve: (Conflict) -> ConflictResolution
  ) throws {
    do {
      if try moving.rebase(onto: version, resolving: resolve), moving === session {
        dropHandlesDeletedElsewhere()
      }
    } catch {
      let conflicts = error.conflicts.map(modelConflict)
      throw ModelError(
        .conflict,
        message: "fetch refused: the objects it reads are at a newer version, and "
          + (conflicts.count == 1
            ? "1 unsaved change collides with a save made since"
            : "\(conflicts.count) unsaved changes collide with saves made since")
          + ": save or roll back first",
        conflicts: conflicts)
    }
  }

  /// With a store that keeps only fetched objects in memory: brings the object of
  /// `identifier` into memory when it is not, so that `model(for:)` finds what a fully loaded
  /// store would. A context with unsaved changes moves to the version holding it with its
  /// changes replayed, as a fetch does (in a custom migration stage, where it is the only
  /// writer, they move along unchanged).
  ///
  /// `model(for:)` cannot throw, and the object exists whatever the context changed: when the
  /// replay collides with saves made elsewhere and ``mergePolicy`` refuses a collision, the
  /// context keeps its own value there for now, and the collision is kept in
  /// ``deferredConflicts`` for the next ``save()`` to settle (and refuse, under
  /// ``MergePolicy/rejectConflicts``), as Core Data's `object(with:)` answers and its save
  /// reports the merge conflict. The object is left out (`model(for:)` answers `nil`) only
  /// when the server cannot be read, or when the changes cannot move at all: a new object
  /// pointing at an object deleted elsewhere whose delete rule toward it is `.deny`.
  func loadIdentified(_ identifier: PersistentIdentifier) {
    guard let store = fetchedOnlyStore, let key = key(for: identifier), !session.contains(key)
    else { return }
    guard (try? store.makeResident(entity: identifier.entityName, row: Int(key.row))) != nil
    else { return }
    guard session.hasChanges else {
      refreshIfClean()
      return
    }
    let resolve = conflictResolver()
    var deferred: [Conflict] = []
    let moved = try? session.rebaseOntoLatest { conflict in
      let resolution = resolve(conflict)
      guard resolution == .reject else { return resolution }
      deferred.append(conflict)
      return .keepMine
    }
    guard let moved else { return }
    // A slot collided with again (a later save elsewhere) stays one collision.
    for conflict in deferred {
      let known = deferredConflicts.contains { $0.kind == conflict.kind && $0.key == conflict.key }
      if !known { deferredConflicts.append(conflict) }
    }
    if moved { dropHandlesDeletedElsewhere() }
  }

  /// Settles the collisions `model(for:)` let through (``deferredConflicts``) by `resolve`,
  /// before a save: any refused refuses the save, and nothing changes; otherwise those the
  /// store wins take the store's value again (this context's value was kept meanwhile) and the
  /// list empties. Collisions with a deletion were settled when the context moved, as a
  /// rebase settles them whatever the resolution.
  ///
  /// - Throws: ``ModelError`` with code ``ModelError/Code/conflict``.
  func settleDeferredConflicts(_ resolve: (Conflict) -> ConflictResolution) throws {
    guard !deferredConflicts.isEmpty else { return }
    let current = deferredConflicts.map(currentValues)
    let resolutions = current.map(resolve)
    let refused = zip(current, resolutions).filter { $0.1 == .reject }.map(\.0)
    guard refused.isEmpty else { throw saveConflictError(refused) }
    for (conflict, resolution) in zip(current, resolutions) where resolution == .keepStore {
      restoreStoreValue(of: conflict)
    }
    deferredConflicts = []
  }

  /// `conflict` with this context's and the store's values as they are now.
  private func currentValues(_ conflict: Conflict) -> Conflict {
    guard case .attribute(let slot) = conflict.kind, session.contains(conflict.key) else {
      return conflict
    }
    let (entity, row) = (Int(conflict.key.entity), Int(conflict.key.row))
    var updated = conflict
    updated.mine = session.table(entity).attributeColumns[slot].value(at: row)
    let committed = session.committedTable(entity)
    if committed.contains(conflict.key) {
      updated.theirs = committed.attributeColumns[slot].value(at: row)
    }
    return updated
  }

  /// Writes the value (or the to-one target) the store holds for what `conflict` is about
  /// over this context's own.
  private func restoreStoreValue(of conflict: Conflict) {
    let key = conflict.key
    let committed = session.committedTable(Int(key.entity))
    guard session.contains(key), committed.contains(key) else { return }
    switch conflict.kind {
    case .attribute(let slot):
      let value = committed.attributeColumns[slot].value(at: Int(key.row))
      guard session.writeAttribute(value, slot: slot, of: key) else { return }
      if let object = registeredObject(for: key) {
        observationDidWrite(object, attributeSlot: slot)
      }
    case .relationship(let slot):
      let targets = committed.relatedKeys(row: Int(key.row), slot: slot).filter(
        session.contains)
      setRelationship(of: key, slot: slot, to: targets)
    case .changedDeletedObject, .referencesDeletedObject, .deletedChangedObject:
      break
    }
  }

  /// Publishes the session's changes; a unique rule that PostgreSQL found broken at the commit
  /// (against an object not in memory) becomes the ``ModelError`` an in-memory store gives.
  ///
  /// - Throws: ``ModelError`` with code ``ModelError/Code/validationFailed``, or what the
  ///   publish throws; nothing was saved.
  func publishReportingUniqueness() throws -> [ObjectKey]? {
    do {
      return try session.publish()
    } catch let error as PostgreSQLError {
      guard let violation = error.uniqueViolation,
        let entity = session.catalog.entity(named: violation.entity)
      else { throw error }
      let holder = violation.row.map { row in
        // The failed save left the working table as it was: the row's generation is the
        // object's (the store does not reuse rows today, but the identifier must not rely on it).
        self.identifier(
          for: ObjectKey(
            entity: entity.index, row: row,
            generation: session.table(entity.index).generation(of: row)))
      }
      throw ModelError(
        .validationFailed, message: "save failed: 1 rule broken",
        violations: [
          ModelError.Violation(
            entity: violation.entity, property: violation.properties.joined(separator: "+"),
            identifier: holder, rule: "value \(violation.value) is not unique")
        ])
    }
  }
}

/// What a fetch ran in PostgreSQL first, with a store that keeps only fetched objects.
struct FetchedRun {
  /// The SQL that loaded the candidates.
  var sql: SQLFetch? = nil
  /// The number of objects the database selects before the offset and limit, when it
  /// counted them (without the rows of ``countedInMemory``).
  var count: Int? = nil
  /// The rows (by ``FetchedPendingRows/key(entity:row:)``) left out of ``count``: those
  /// the request matches in the context's view are to be added.
  var countedInMemory: Set<UInt64>? = nil
}
