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
  /// A context with unsaved changes moves too, its changes replayed onto that version (as a
  /// save does), and the SQL selects what the context's view may need: its window widened by
  /// the number of rows of the request's classes the context changed, or, when the request
  /// reads related objects, every object its own-value conjuncts select. A count then leaves
  /// out those rows in PostgreSQL and ``FetchedRun/countedInMemory`` names them for the
  /// caller to count over the context's view (see ``FetchedPendingRows``).
  /// - Throws: ``ModelError`` with code ``ModelError/Code/conflict`` when the unsaved changes
  ///   collide with saves made elsewhere since the context read its objects (and its
  ///   ``mergePolicy`` does not settle them); or as ``PostgreSQLStore/makeResident(for:)`` and
  ///   ``PostgreSQLStore/count(for:excluding:)`` throw.
  func runFetched(_ request: QueryRequest, loading: Bool, counting: Bool) throws -> FetchedRun {
    guard let store = fetchedOnlyStore else { return FetchedRun() }
    guard loading else {
      return FetchedRun(sql: store.sqlFetch(for: request, catalog: session.catalog))
    }
    guard session.hasChanges else {
      if counting, let count = try store.count(for: request) { return FetchedRun(count: count) }
      let fetch = try store.makeResident(for: request)
      try moveOntoLoaded()
      return FetchedRun(sql: fetch)
    }
    let catalog = session.catalog(covering: request.entity)
    let pending = FetchedPendingRows(request, session: session)
    var widened = request
    if pending.readsOnlyOwnValues(request, catalog: catalog) {
      if counting,
        let count = try store.count(
          for: request,
          excluding: pending.rows.map { (catalog.entities[$0.entity].name, $0.row) })
      {
        return FetchedRun(count: count, countedInMemory: pending.counted)
      }
      // The SQL takes the first offset + limit objects: each pending row can take a place
      // of the window in the database and leave it in the context's view.
      widened.limit = request.limit.map {
        QueryRequest.clippedEnd(offset: $0, limit: pending.count)
      }
    } else {
      (widened.predicate, widened.sort) = (
        pending.ownConjuncts(of: request, catalog: catalog), []
      )
      (widened.offset, widened.limit) = (0, nil)
      (widened.shapeIdentity, widened.slotted) = (nil, nil)
    }
    let fetch = try store.makeResident(for: widened)
    try moveOntoLoaded()
    return FetchedRun(sql: fetch)
  }

  /// Moves the context to the store's newest version, which holds what a fetch loaded:
  /// with unsaved changes, by replaying them onto it.
  ///
  /// - Throws: ``ModelError`` with code ``ModelError/Code/conflict`` when they collide with
  ///   saves made elsewhere that the store caught up with.
  private func moveOntoLoaded() throws {
    guard session.hasChanges else {
      refreshIfClean()
      return
    }
    do {
      if try session.rebaseOntoLatest(resolving: conflictResolver()) {
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
  /// writer, they move along unchanged). When that replay collides with a save made elsewhere
  /// (and ``mergePolicy`` does not settle it), or the server cannot be read, the object is
  /// left out: `model(for:)` then answers `nil` as for a missing object.
  func loadIdentified(_ identifier: PersistentIdentifier) {
    guard let store = fetchedOnlyStore, let key = key(for: identifier), !session.contains(key)
    else { return }
    guard (try? store.makeResident(entity: identifier.entityName, row: Int(key.row))) != nil
    else { return }
    _ = try? moveOntoLoaded()
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
