internal import Foundation
public import ModelGraphCore

/// One step of a migration the database makes itself: the schema before and after, the
/// initial values of the attributes it adds, and for a custom stage its code.
public struct PostgreSQLMigrationStep {
  /// What the step is, for messages (`lightweight stage 1.0.0 -> 2.0.0`).
  public var label: String
  /// The schema the database holds before the step.
  public var source: SchemaCatalog
  /// The schema it holds after.
  public var target: SchemaCatalog
  /// Entity name -> attribute name -> initial value, for attributes the step adds.
  public var defaults: [String: [String: ModelValue]]
  /// For a custom stage: its code, run once the tables are altered, with the stores it works
  /// through; `nil` for a lightweight step.
  public var custom: ((PostgreSQLStageStores) throws -> Void)?

  /// Makes a step; `custom` makes it a custom stage's.
  public init(
    label: String, source: SchemaCatalog, target: SchemaCatalog,
    defaults: [String: [String: ModelValue]],
    custom: ((PostgreSQLStageStores) throws -> Void)? = nil
  ) {
    self.label = label
    self.source = source
    self.target = target
    self.defaults = defaults
    self.custom = custom
  }
}

extension PostgreSQLStore {
  /// Brings the database's tables through `steps` in one transaction, without reading its
  /// objects: each step's DDL (columns dropped, renamed, added with their initial value, tables
  /// of added and removed classes, constraints and indexes) and data statements (values filled,
  /// relationships derived from stored inverses, references to removed classes' objects
  /// cleared, a custom step's relationships whose destination, cardinality or inverse change
  /// emptied as in memory), a custom step's code (through ``PostgreSQLStageStores``, in the same
  /// transaction), then the stored classes, the new version on every row a step changed, and
  /// the version bump, recorded as the schema's (other stores then refuse to go on with
  /// ``PostgreSQLError/Code/schemaChanged``). This is how a store opened with
  /// `residency=fetched` migrates.
  ///
  /// - Throws: ``MigrationError`` when the stored data breaks a rule of a step (a required
  ///   attribute without a value or an initial value, a new unique rule with duplicates, a
  ///   derived to-one with two candidates), naming the step; what a custom step's code throws;
  ///   ``PostgreSQLError`` when the server refuses a statement. Either way the transaction is rolled back: the database keeps its
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
            // A custom stage's own checks name it already.
            guard !error.message.contains(step.label) else { throw error }
            var error = error
            error.message = "the \(step.label): " + error.message
            throw error
          }
        }
        try recordClasses(of: last.target, connection: connection)
        let version = applied + 1
        try stampMigratedRows(steps, version: version, connection: connection)
        try connection.run(
          "UPDATE mg_state SET schema_version = version; "
            + "INSERT INTO mg_log (version, token, ids) VALUES (\(version), "
            + "'\(Self.commitToken())', '{}'); NOTIFY \(channel); COMMIT")
        applied = version
        schemaVersion = version
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
      defaults: step.defaults, codes: codes, version: applied + 1, custom: step.custom != nil)
    func alter() throws {
      try migration.alterTables()
      described = described.filter { step.target.entity(named: $0) != nil }
      try describe(step.target, connection: connection, inTransaction: true)
      try migration.finish()
    }
    guard let custom = step.custom else { return try alter() }
    try runStage(
      label: step.label, source: step.source, owed: { migration.owed }, alter: alter,
      code: custom)
    try migration.requireOwed()
  }

  /// Gives every row of a class whose stored layout a step changed the migration's version,
  /// so that a write based on an older version of such a row conflicts (rows whose
  /// references a step cleared got it from ``SQLMigration``).
  private func stampMigratedRows(
    _ steps: [PostgreSQLMigrationStep], version: UInt64, connection: PostgreSQLConnection
  ) throws {
    guard let last = steps.last else { return }
    var changed: Set<String> = []
    for step in steps {
      for entity in step.target.entities {
        guard let old = step.source.entity(named: entity.name) else { continue }
        if Self.layout(of: old) != Self.layout(of: entity) { changed.insert(entity.name) }
      }
    }
    let sql = changed.sorted().filter { last.target.entity(named: $0) != nil }.map {
      "UPDATE \(SQLMapping.table($0)) SET _version = \(version);\n"
    }
    if !sql.isEmpty { try connection.run(sql.joined()) }
  }

  /// What a class's rows hold: its columns and lists, with their types (not the names they
  /// were renamed from, nor rules such as uniqueness).
  private static func layout(of entity: ResolvedEntity) -> [String] {
    entity.attributes.map { "\($0.name) \($0.valueType) \($0.isOptional)" }
      + entity.relationships.map { "\($0.name) \($0.destination) \($0.isToMany)" }
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
