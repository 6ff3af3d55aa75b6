extension PostgreSQLStore {
  /// Throws ``PostgreSQLError/Code/schemaChanged`` once another process migrated the schema;
  /// called with `lock` held.
  func checkNotMigratedElsewhere() throws {
    guard let version = migratedElsewhere else { return }
    throw Self.schemaChanged(at: version)
  }

  /// Compares the database's last migration (`mg_state.schema_version`, read while catching
  /// up) with the one this store works with: after another process's migration the store's
  /// tables no longer match its classes, so it refuses every later save and read. Called with
  /// `lock` held.
  ///
  /// - Throws: ``PostgreSQLError/Code/schemaChanged``.
  func checkSchema(_ stored: UInt64) throws {
    guard stored != schemaVersion else { return }
    migratedElsewhere = stored
    throw Self.schemaChanged(at: stored)
  }

  private static func schemaChanged(at version: UInt64) -> PostgreSQLError {
    PostgreSQLError(
      .schemaChanged,
      message: "another process migrated the database's schema (at version \(version)) since "
        + "this container opened; nothing was saved or read: close the container and open it "
        + "again with the new schema's classes")
  }
}
