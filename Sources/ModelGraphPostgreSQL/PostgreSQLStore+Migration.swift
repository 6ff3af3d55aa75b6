internal import Foundation
public import ModelGraphCore

/// One lightweight step of a migration the database makes itself: the schema before and after,
/// and the initial values of the attributes it adds.
public struct PostgreSQLMigrationStep: Sendable {
  /// What the step is, for messages (`lightweight stage 1.0.0 -> 2.0.0`).
  public var label: String
  /// The schema the database holds before the step.
  public var source: SchemaCatalog
  /// The schema it holds after.
  public var target: SchemaCatalog
  /// Entity name -> attribute name -> initial value, for attributes the step adds.
  public var defaults: [String: [String: ModelValue]]

  /// Makes a step.
  public init(
    label: String, source: SchemaCatalog, target: SchemaCatalog,
    defaults: [String: [String: ModelValue]]
  ) {
    self.label = label
    self.source = source
    self.target = target
    self.defaults = defaults
  }
}

extension PostgreSQLStore {
  /// Brings the database's tables through `steps` in one transaction, without reading its
  /// objects: each step's DDL (columns dropped, renamed, added with their initial value, tables
  /// of added and removed classes, constraints and indexes) and data statements (values filled,
  /// relationships derived from stored inverses, references to removed classes' objects
  /// cleared), then the stored classes and the version bump. This is how a store opened with
  /// `residency=fetched` migrates.
  ///
  /// - Throws: ``MigrationError`` when the stored data breaks a rule of a step (a required
  ///   attribute without a value or an initial value, a new unique rule with duplicates, a
  ///   derived to-one with two candidates), naming the step; ``PostgreSQLError`` when the server
  ///   refuses a statement. Either way the transaction is rolled back: the database keeps its
  ///   old schema and data.
  public func migrate(_ steps: [PostgreSQLMigrationStep]) throws {
    guard let last = steps.last else { return }
    try withLock {
      let connection = try connected()
      let previousDescribed = described
      do {
        try connection.run(
          "BEGIN; SELECT pg_advisory_xact_lock(7201857); SELECT mg_begin_commit(\(applied))")
        for step in steps {
          do {
            try run(step, connection: connection)
          } catch let error as MigrationError {
            var error = error
            error.message = "the \(step.label): " + error.message
            throw error
          }
        }
        try recordClasses(of: last.target, connection: connection)
        let version = applied + 1
        try connection.run(
          "INSERT INTO mg_log (version, token, ids) VALUES (\(version), "
            + "'\(UUID().uuidString)', '{}'); NOTIFY \(channel); COMMIT")
        applied = version
      } catch {
        if connection.isInTransaction { _ = try? connection.run("ROLLBACK") }
        described = previousDescribed
        _ = try? readEntities(connection, onlyCodes: [])
        throw error
      }
    }
  }

  /// One step, inside the migration's transaction; called with `lock` held.
  private func run(_ step: PostgreSQLMigrationStep, connection: PostgreSQLConnection) throws {
    var migration = SQLMigration(
      connection: connection, source: step.source, target: step.target,
      defaults: step.defaults, codes: codes)
    try migration.alterTables()
    described = described.filter { step.target.entity(named: $0) != nil }
    try describe(step.target, connection: connection, inTransaction: true)
    try migration.finish()
  }

  /// Stores the lineage of every class of `catalog`, in its order; other classes keep their
  /// codes (identifiers stay) but no longer describe a table.
  private func recordClasses(of catalog: SchemaCatalog, connection: PostgreSQLConnection) throws {
    var sql = "UPDATE mg_entities SET lineage = NULL, ordinal = NULL;\n"
    for entity in catalog.entities {
      let lineage = try SchemaCatalog().adding(
        entity.lineage.reversed().map { catalog.entities[$0].description })
      sql +=
        "UPDATE mg_entities SET lineage = \(SQLMapping.literal(bytes: lineage.encodedBytes)), "
        + "ordinal = nextval('mg_ordinal') WHERE name = \(SQLMapping.literal(entity.name));\n"
    }
    try connection.run(sql)
    described = Set(catalog.entities.map(\.name))
  }
}
