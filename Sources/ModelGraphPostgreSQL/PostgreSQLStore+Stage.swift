internal import Foundation
internal import ModelGraphCore

/// What ties a store to the custom migration stage whose code works through it.
struct StageBinding {
  /// `custom stage 1.0.0 -> 2.0.0`, for messages.
  var label: String
  /// For the stage's old store: the search path that finds the copies of the tables as they
  /// were before the stage; `nil` for its new store, which works on the migrated tables.
  var searchPath: String?
  /// The migration's own search path, restored after each read of the old store.
  var restoredPath: String
}

/// The two stores a custom migration stage's code works through when the database migrates
/// itself (`residency=fetched`): both keep only fetched objects in memory and run every
/// fetch, count and save as statements inside the migration's transaction, on its connection.
public final class PostgreSQLStageStores {
  /// The objects as they were before the stage, in the old version's classes; read-only: a
  /// save through it throws ``MigrationError``.
  public let old: PostgreSQLStore
  /// The migrated tables, in the new version's classes; its saves write into the migration's
  /// transaction, so they commit or roll back with it.
  public let new: PostgreSQLStore
  /// The attributes (class, attribute) that the stage's code must set on every object of the
  /// class: those whose type changed, and required ones without a value or initial value.
  public let owed: [(entity: String, attribute: String)]

  init(old: PostgreSQLStore, new: PostgreSQLStore, owed: [(entity: String, attribute: String)]) {
    self.old = old
    self.new = new
    self.owed = owed
  }

  /// Saves tried through ``old`` (each threw).
  public var oldSaves: Int { old.withLock { old.stageSaves } }

  /// Saves written through ``new``.
  public var newSaves: Int { new.withLock { new.stageSaves } }

  /// The number of objects of class `entity` in the migrated tables whose rows are not in
  /// `rows`, and the lowest such row.
  ///
  /// - Throws: ``PostgreSQLError``.
  public func objects(of entity: String, outside rows: [Int]) throws -> (count: Int, first: Int?) {
    try new.withLock {
      let connection = try new.connected()
      guard let code = new.codes[entity] else { return (0, nil) }
      let ids = rows.map { String(code << SQLMapping.rowBits | Int64($0)) }
      let result = try connection.query(
        "SELECT count(*), min(id) FROM \(SQLMapping.table(entity)) WHERE NOT (id = "
          + "ANY('{\(ids.joined(separator: ","))}'::bigint[]))")
      let mask = (Int64(1) << SQLMapping.rowBits) - 1
      return (
        result.text(0, 0).flatMap(Int.init) ?? 0,
        result.text(0, 1).flatMap(Int64.init).map { Int($0 & mask) }
      )
    }
  }

  /// Ends both stores' work; the migration's connection stays open.
  func close() {
    old.close()
    new.close()
  }
}

extension PostgreSQLStore {
  /// A save through a custom stage's store: its statements run inside the migration's
  /// transaction, behind a savepoint, so a refused save leaves the transaction usable.
  ///
  /// - Throws: ``MigrationError`` for a save through the stage's old (read-only) store;
  ///   ``PostgreSQLError`` when the server refuses the save (nothing of it is kept).
  func commitInStage(_ commit: StoreCommit, _ stage: StageBinding) throws -> StoreCommitOutcome {
    try withLock {
      stageSaves += 1
      guard stage.searchPath == nil else {
        throw MigrationError(
          .incompleteCustomStage,
          message: "the \(stage.label) saved its old context, which is read-only")
      }
      let connection = try connected()
      let statements = try batch(for: commit, token: "", inStage: true)
      do {
        try connection.runPipelined(
          [PostgreSQLStatement("SAVEPOINT mg_stage_save")] + statements + [
            PostgreSQLStatement("RELEASE SAVEPOINT mg_stage_save")
          ])
      } catch let error as PostgreSQLError {
        _ = try? connection.run("ROLLBACK TO SAVEPOINT mg_stage_save")
        throw Self.reportingUniqueness(error, in: commit)
      }
      return .committed(ticket: nil)
    }
  }

  /// A stage store's read: `read` runs in the migration's transaction (the old store's with
  /// the search path that finds the tables as they were), behind a savepoint, so a read the
  /// server refuses (a division by zero in a pushed-down predicate) leaves the transaction
  /// usable for the rest of the stage, as a refused save does. Called with `lock` held.
  func readInStage<T>(_ stage: StageBinding, _ read: (PostgreSQLConnection) throws -> T) throws
    -> T
  {
    let connection = try connected()
    try connection.run("SAVEPOINT mg_stage_read")
    do {
      if let path = stage.searchPath { try connection.run("SET LOCAL search_path TO \(path)") }
      let result = try read(connection)
      if stage.searchPath != nil {
        try connection.run("SET LOCAL search_path TO \(stage.restoredPath)")
      }
      try connection.run("RELEASE SAVEPOINT mg_stage_read")
      return result
    } catch {
      // Rolling back to the savepoint also undoes the SET LOCAL.
      _ = try? connection.run(
        "ROLLBACK TO SAVEPOINT mg_stage_read; RELEASE SAVEPOINT mg_stage_read")
      throw error
    }
  }

  /// Runs a custom stage's code: copies the tables of the stage's old classes into a schema
  /// of their own (so the old store reads them as they were), runs `alter` (the stage's DDL
  /// and data statements on the tables), then `code` with the two stores, then drops the
  /// copies. Called with `lock` held, inside the migration's transaction.
  func runStage(
    label: String, source: SchemaCatalog, owed: () -> [(entity: String, attribute: String)],
    alter: () throws -> Void, code: (PostgreSQLStageStores) throws -> Void
  ) throws {
    let connection = try connected()
    let side = "mg_stage_\(connection.backendPID)"
    let restored = try connection.query("SHOW search_path").text(0, 0) ?? "public"
    let tables = try connection.query(
      "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
    var sql = "DROP SCHEMA IF EXISTS \(side) CASCADE; CREATE SCHEMA \(side);\n"
    var copied: Set<String> = []
    for index in 0..<tables.count {
      guard let name = tables.text(index, 0) else { continue }
      let owner = name.split(separator: ".", maxSplits: 1).first.map(String.init) ?? name
      guard described.contains(owner), source.entity(named: owner) != nil else { continue }
      copied.insert(owner)
      let table = SQLMapping.quoted(name)
      sql +=
        "CREATE TABLE \(side).\(table) (LIKE \(table) INCLUDING DEFAULTS INCLUDING INDEXES); "
        + "INSERT INTO \(side).\(table) SELECT * FROM \(table);\n"
    }
    try connection.run(sql)
    let appliedBefore = applied
    try alter()
    let old = stageStore(
      StageBinding(label: label, searchPath: "\(side), \(restored)", restoredPath: restored),
      connection: connection, described: copied, applied: appliedBefore)
    let new = stageStore(
      StageBinding(label: label, searchPath: nil, restoredPath: restored),
      connection: connection, described: described, applied: appliedBefore + 1)
    let stores = PostgreSQLStageStores(old: old, new: new, owed: owed())
    defer { stores.close() }
    try code(stores)
    // The stage's stores may have read classes and reserved rows.
    for (name, code) in new.withLock({ new.codes }) {
      codes[name] = code
      names[code] = name
    }
    try connection.run("DROP SCHEMA \(side) CASCADE")
  }

  /// A store on this store's connection for a custom stage's code.
  private func stageStore(
    _ binding: StageBinding, connection: PostgreSQLConnection, described: Set<String>,
    applied: UInt64
  ) -> PostgreSQLStore {
    let store = PostgreSQLStore(
      url: url, connection: connection, schema: "stage", keepsOnlyFetched: true,
      unicode: unicode, stage: binding)
    store.codes = codes
    store.names = names
    store.described = described
    store.applied = applied
    store.schemaVersion = schemaVersion
    return store
  }
}
