internal import ModelGraphCore
internal import ModelGraphPostgreSQL

extension ModelContext {
  /// The PostgreSQL store of the container, when it keeps only fetched objects in memory.
  var fetchedOnlyStore: PostgreSQLStore? {
    guard let store = container.store.persistence as? PostgreSQLStore, store.keepsOnlyFetched
    else { return nil }
    return store
  }

  /// With a store that keeps only fetched objects in memory: runs `request` in PostgreSQL and
  /// brings the objects it selects into memory (when `loading`), then moves the context to the
  /// version holding them; returns the SQL, or `nil` for any other store.
  ///
  /// - Throws: ``PostgreSQLError`` with code `unsavedChanges` when the context has unsaved
  ///   changes (its objects cannot move to the version holding what was loaded), or as
  ///   ``PostgreSQLStore/makeResident(for:)`` throws.
  func loadFetched(_ request: QueryRequest, loading: Bool) throws -> SQLFetch? {
    guard let store = fetchedOnlyStore else { return nil }
    guard loading else { return store.sqlFetch(for: request, catalog: session.catalog) }
    try checkNoUnsavedChanges()
    let fetch = try store.makeResident(for: request)
    refreshIfClean()
    return fetch
  }

  /// With a store that keeps only fetched objects in memory: the number of objects `request`
  /// selects, counted by PostgreSQL, when the whole request compiles to SQL; `nil` otherwise.
  ///
  /// - Throws: As ``loadFetched(_:loading:)``.
  func countFetched(_ request: QueryRequest) throws -> Int? {
    guard let store = fetchedOnlyStore else { return nil }
    try checkNoUnsavedChanges()
    return try store.count(for: request)
  }

  /// With a store that keeps only fetched objects in memory: brings the object of
  /// `identifier` into memory when it is not, so that `model(for:)` finds what a fully loaded
  /// store would. A context with unsaved changes cannot move to the version holding it, and a
  /// server that cannot be read leaves it out: `model(for:)` then answers `nil` as for a
  /// missing object.
  func loadIdentified(_ identifier: PersistentIdentifier) {
    guard let store = fetchedOnlyStore, !session.hasChanges, let key = key(for: identifier),
      !session.contains(key)
    else { return }
    guard (try? store.makeResident(entity: identifier.entityName, row: Int(key.row))) != nil
    else { return }
    refreshIfClean()
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
