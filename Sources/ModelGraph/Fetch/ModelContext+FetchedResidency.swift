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
  /// - Throws: ``PostgreSQLError`` with code `unsavedChanges` when the context has unsaved
  ///   changes (its objects cannot move to the version holding what was loaded), or as
  ///   ``PostgreSQLStore/makeResident(for:)`` and ``PostgreSQLStore/count(for:)`` throw.
  func runFetched(_ request: QueryRequest, loading: Bool, counting: Bool) throws -> (
    sql: SQLFetch?, count: Int?
  ) {
    guard let store = fetchedOnlyStore else { return (nil, nil) }
    guard loading else { return (store.sqlFetch(for: request, catalog: session.catalog), nil) }
    try checkNoUnsavedChanges()
    if counting, let count = try store.count(for: request) { return (nil, count) }
    let fetch = try store.makeResident(for: request)
    refreshIfClean()
    return (fetch, nil)
  }

  /// With a store that keeps only fetched objects in memory: brings the object of
  /// `identifier` into memory when it is not, so that `model(for:)` finds what a fully loaded
  /// store would. A context with unsaved changes keeps reading the version it started them on,
  /// so it cannot move to the version holding it, except in a custom migration stage (where
  /// it is the only writer, and only objects that were there all along are read: its changes
  /// move along unchanged). Otherwise, and when the server cannot be read, the object is left
  /// out: `model(for:)` then answers `nil` as for a missing object.
  func loadIdentified(_ identifier: PersistentIdentifier) {
    guard let store = fetchedOnlyStore, let key = key(for: identifier), !session.contains(key),
      !session.hasChanges || store.runsMigrationStage
    else { return }
    guard (try? store.makeResident(entity: identifier.entityName, row: Int(key.row))) != nil
    else { return }
    if session.hasChanges {
      guard (try? session.rebaseOntoLatest()) != nil else { return }
      dropHandlesDeletedElsewhere()
    } else {
      refreshIfClean()
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

  private func checkNoUnsavedChanges() throws {
    if session.hasChanges {
      throw PostgreSQLError(
        .unsavedChanges,
        message: "this container keeps only fetched objects in memory, and a fetch there needs "
          + "a context without unsaved changes: save or roll back first")
    }
  }
}
