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

  private func checkNoUnsavedChanges() throws {
    if session.hasChanges {
      throw PostgreSQLError(
        .unsavedChanges,
        message: "this container keeps only fetched objects in memory, and a fetch there needs "
          + "a context without unsaved changes: save or roll back first")
    }
  }
}
