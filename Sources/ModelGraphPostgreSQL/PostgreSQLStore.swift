internal import Foundation
public import ModelGraphCore
internal import Synchronization

/// A store's persistence in a PostgreSQL database that several processes may share.
///
/// The process keeps the whole graph in memory, loaded when the store opens. Each save is one
/// PostgreSQL transaction, sent as one batch of statements and published in memory only after
/// its commit. Saves of all processes are ordered by one version counter (`mg_state`), each
/// leaving a row in the change log (`mg_log`) and a notification on channel `modelgraph`;
/// every open store listens and publishes what other processes committed as a new version, so
/// a save made on a stale version is refused and rebased like a save between two contexts.
public final class PostgreSQLStore: StorePersistence, @unchecked Sendable {
  // @unchecked Sendable: every mutable property is read and written with `lock` held.

  /// The URL or connection string the store was opened with (without `residency`).
  public let url: String
  /// Whether the store keeps in memory only the objects fetched (and those they reach), with
  /// every fetch compiled to SQL; set by `residency=fetched` in the URL's query.
  public let keepsOnlyFetched: Bool
  /// For a store through which a custom migration stage's code works: the migration it runs
  /// in (its connection and transaction are the migration's).
  let stage: StageBinding?
  /// Saves made (or, for the stage's old store, tried) through a stage's store.
  var stageSaves = 0
  /// Whether the database's encoding is UTF-8, so strings compare in SQL as in Swift.
  let unicode: Bool
  private let lock = NSLock()
  let catchUpLock = NSLock()
  private var connection: PostgreSQLConnection?
  /// The server process of `connection`, read by the listener without taking `lock`.
  private let ownBackend = Atomic<Int32>(0)
  /// The server process of the listener's connection (0 before it connects): a save signals
  /// only when a listener other than this one is registered.
  var listenerPID: Int32 {
    get { listenerBackend.load(ordering: .relaxed) }
    set { listenerBackend.store(newValue, ordering: .relaxed) }
  }
  private let listenerBackend = Atomic<Int32>(0)
  /// `mg_state.registrations` as the listener last read it, after its own registration (-1
  /// before): a save that finds another count signals (``saveText(writes:insertions:)``).
  var registrationsSeen: Int64 {
    get { seenRegistrations.load(ordering: .relaxed) }
    set { seenRegistrations.store(newValue, ordering: .relaxed) }
  }
  private let seenRegistrations = Atomic<Int64>(-1)
  /// After a lost connection, how long the server process that ran a save may go on before
  /// it is ended, so that whether the save committed is known.
  var lingeringSessionWait: TimeInterval {
    get { withLock { sessionWait } }
    set { withLock { sessionWait = newValue } }
  }
  private var sessionWait: TimeInterval = 5
  /// The failure tests make happen at a statement of the store's connection.
  var injectFault: (@Sendable (String) -> PostgreSQLFault?)? {
    get { withLock { fault } }
    set {
      withLock {
        fault = newValue
        connection?.injectFault = newValue
      }
    }
  }
  private var fault: (@Sendable (String) -> PostgreSQLFault?)?
  /// The database version the in-memory store holds every commit of.
  var applied: UInt64 = 0
  /// The database version of the last migration of the schema this store works with.
  var schemaVersion: UInt64 = 0
  /// The version of a migration another process made since, after which the store refuses
  /// to save or read (``PostgreSQLError/Code/schemaChanged``).
  var migratedElsewhere: UInt64?
  var codes: [String: Int64] = [:]
  var names: [Int64: String] = [:]
  /// Entities whose table and lineage are in the database.
  var described: Set<String> = []
  /// Per entity, rows reserved for this process and not handed out, highest first.
  private var pool: [String: [Int]] = [:]
  /// Per entity, every block of rows reserved for this process.
  var blocks: [String: [Range<Int>]] = [:]
  /// The statement texts of each class's saves, by the class's identity.
  var statementCache: [ObjectIdentifier: PostgreSQLStatementTexts] = [:]
  /// The texts of merged inserts (``merged(_:)``), by the texts they merge.
  var mergedTexts: [[String]: String] = [:] {
    didSet { if mergedTexts.isEmpty { recentMergedTexts.removeAll() } }
  }
  /// The last texts found in ``mergedTexts``, looked up without hashing; emptied with it.
  var recentMergedTexts = RecentLookups<[String], String>()
  /// Whether ``close()`` was called; atomic, so the listener reads it without waiting for a
  /// save that holds `lock` through its round trip.
  private let closed = Atomic<Bool>(false)
  weak var store: Store?
  /// Rows reserved at a time.
  static let blockSize = 1024

  /// The notification channel of the store's schema (``PostgreSQLSchema/channel(of:)``).
  let channelName: String
  /// ``channelName`` as an SQL identifier.
  let channel: String
  /// Whether the listener is connected and caught up with what was committed before it.
  var isListening: Bool { withLock { listening } }
  var listening = false

  init(
    url: String, connection: PostgreSQLConnection, schema: String, keepsOnlyFetched: Bool,
    unicode: Bool, stage: StageBinding? = nil
  ) {
    self.url = url
    self.keepsOnlyFetched = keepsOnlyFetched
    self.stage = stage
    self.unicode = unicode
    self.connection = connection
    ownBackend.store(connection.backendPID, ordering: .relaxed)
    channelName = PostgreSQLSchema.channel(of: schema)
    channel = SQLMapping.quoted(channelName)
  }

  /// Connects to the database at `url` (a `postgresql://` URI or a libpq connection string),
  /// creates the store's bookkeeping tables if they are missing, and reads every stored object
  /// (with `residency=fetched` in the URL's query, only the classes: objects are read by
  /// fetches, see ``makeResident(for:holders:)``).
  ///
  /// - Returns: The store, and the stored version (`nil` when the database holds no classes).
  /// - Throws: ``PostgreSQLError`` with code `libraryUnavailable` (install `libpq5`),
  ///   `invalidURL` (also for a `residency` other than `all` or `fetched`), `unreachable`,
  ///   `authenticationFailed`, `malformed` or `server`.
  public static func open(url: String) throws -> (store: PostgreSQLStore, stored: StoreVersion?) {
    let (url, keepsOnlyFetched) = try residency(of: url)
    let connection = try PostgreSQLConnection(url)
    try connection.run(PostgreSQLSchema.setup)
    let schema = try connection.query("SELECT current_schema()").text(0, 0) ?? "public"
    let encoding = try connection.query("SHOW server_encoding").text(0, 0)
    let store = PostgreSQLStore(
      url: url, connection: connection, schema: schema, keepsOnlyFetched: keepsOnlyFetched,
      unicode: encoding == "UTF8")
    let stored = try store.withLock { () throws -> StoreVersion? in try store.loadAll() }
    return (store, stored)
  }

  /// Makes `store` commit through this persistence, and starts listening for other
  /// processes' commits.
  public func attach(to store: Store) { attach(to: store, listening: stage == nil) }

  /// Makes `store` commit through this persistence; tests leave `listening` off to make a
  /// store that sees other saves only when it catches up.
  func attach(to store: Store, listening: Bool) {
    withLock { self.store = store }
    store.attach(persistence: self)
    if listening { startListening() }
  }

  /// The server process of the connection saves use (tests end it to simulate a lost
  /// connection).
  public var backendPID: Int32 { ownBackend.load(ordering: .relaxed) }

  /// The database version the in-memory store holds every commit of.
  public var appliedVersion: UInt64 { withLock { applied } }

  /// Stops listening and closes the connections; later saves throw.
  public func close() {
    withLock {
      closed.store(true, ordering: .relaxed)
      // A stage's store borrows the migration's connection.
      if stage == nil { connection?.close() }
      connection = nil
    }
  }

  deinit { if stage == nil { connection?.close() } }

  /// The number of statements prepared on the store's connection (0 without one).
  var preparedStatementCount: Int { withLock { connection?.prepared.count ?? 0 } }

  /// Whether ``close()`` was called.
  var isClosed: Bool { closed.load(ordering: .relaxed) }

  func withLock<T>(_ body: () throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }

  /// The connection, reconnected when it broke; called with `lock` held.
  func connected() throws(PostgreSQLError) -> PostgreSQLConnection {
    if closed.load(ordering: .relaxed) {
      throw PostgreSQLError(.closed, message: "the store was closed")
    }
    if let connection, connection.isHealthy { return connection }
    if stage != nil {
      // Another connection would be outside the migration's transaction.
      throw PostgreSQLError(.connectionLost, message: "the migration's connection was lost")
    }
    connection?.close()
    connection = nil
    let fresh = try PostgreSQLConnection(url)
    fresh.injectFault = fault
    connection = fresh
    ownBackend.store(fresh.backendPID, ordering: .relaxed)
    return fresh
  }

  // MARK: Loading

  /// Reads the catalog and every object in one snapshot of the database.
  private func loadAll() throws -> StoreVersion? {
    let connection = try connected()
    try connection.run("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
    defer { if connection.isInTransaction { _ = try? connection.run("ROLLBACK") } }
    let version = try connection.query("SELECT version, schema_version FROM mg_state")
    applied = UInt64(version.text(0, 0) ?? "0") ?? 0
    schemaVersion = UInt64(version.text(0, 1) ?? "0") ?? 0
    let descriptions = try readEntities(connection, onlyCodes: nil)
    guard !descriptions.isEmpty else {
      try connection.run("COMMIT")
      return nil
    }
    let catalog: SchemaCatalog
    do {
      catalog = try SchemaCatalog().adding(descriptions)
    } catch {
      throw PostgreSQLError(.malformed, message: "the stored classes do not resolve: \(error)")
    }
    var tables: [Table] = []
    for entity in catalog.entities {
      let table = Table(entity: entity)
      if keepsOnlyFetched {
        tables.append(table)
        continue
      }
      let queries = FetchedRows.queries(for: entity, ids: nil)
      var joins: [Int: PostgreSQLResult] = [:]
      for (slot, sql) in queries.joins { joins[slot] = try connection.query(sql) }
      let fetched = FetchedRows(
        entity: entity.name, rows: try connection.query(queries.rows), joins: joins)
      _ = try fetched.apply(to: table) {
        self.names[$0].flatMap { catalog.entity(named: $0)?.index }
      }
      tables.append(table)
    }
    try connection.run("COMMIT")
    return StoreVersion(loaded: tables, catalog: catalog)
  }

  /// Reads `mg_entities`: records every code, and returns the described entities (all, or
  /// those of `onlyCodes`) in the order they were described, parents first.
  func readEntities(_ connection: PostgreSQLConnection, onlyCodes: Set<Int64>?)
    throws -> [EntityDescription]
  {
    let result = try connection.query(
      "SELECT code, name, lineage FROM mg_entities ORDER BY ordinal NULLS LAST, code")
    var descriptions: [EntityDescription] = []
    for index in 0..<result.count {
      guard let code = result.text(index, 0).flatMap(Int64.init), let name = result.text(index, 1)
      else { continue }
      codes[name] = code
      names[code] = name
      guard let field = result.cString(index, 2) else { continue }
      described.insert(name)
      if let onlyCodes, !onlyCodes.contains(code) { continue }
      guard let bytes = SQLMapping.bytes(field),
        let lineage = try? SchemaCatalog(encoded: bytes, source: "mg_entities"),
        let description = lineage.entities.last?.description, description.name == name
      else { throw PostgreSQLError(.malformed, message: "the stored class \(name) is unreadable") }
      descriptions.append(description)
    }
    return descriptions
  }

  // MARK: Describing classes

  /// Gives every entity of `catalog` a code, a stored lineage and its tables; concurrent
  /// describers wait for each other on an advisory lock. Called with `lock` held.
  func describe(
    _ catalog: SchemaCatalog, connection: PostgreSQLConnection, inTransaction: Bool = false
  ) throws {
    let missing = catalog.entities.filter { !described.contains($0.name) }
    guard !missing.isEmpty else { return }
    var sql = (inTransaction ? "" : "BEGIN; ") + "SELECT pg_advisory_xact_lock(7201857);\n"
    for entity in missing {
      let lineage = try SchemaCatalog().adding(
        entity.lineage.reversed().map {
          catalog.entities[$0].description
        })
      sql +=
        "INSERT INTO mg_entities (name, lineage, ordinal) VALUES (\(SQLMapping.literal(entity.name)), "
        + "\(SQLMapping.literal(bytes: lineage.encodedBytes)), nextval('mg_ordinal')) "
        + "ON CONFLICT (name) DO UPDATE SET lineage = COALESCE(mg_entities.lineage, EXCLUDED.lineage), "
        + "ordinal = COALESCE(mg_entities.ordinal, EXCLUDED.ordinal);\n"
    }
    var foreignKeys: [String] = []
    for entity in missing {
      let statements = SQLMapping.createStatements(for: entity, in: catalog) {
        catalog.entity(named: $0).map { catalog.subtree(of: $0.index).count == 1 } ?? false
      }
      // Foreign keys once every table of the batch exists.
      for statement in statements {
        if statement.hasPrefix("DO ") {
          foreignKeys.append(statement)
        } else {
          sql += statement + ";\n"
        }
      }
      // A new subclass: a to-one toward one of its ancestors can no longer be a foreign key.
      for ancestor in entity.lineage.dropFirst() {
        let name = catalog.entities[ancestor].name
        for source in catalog.entities {
          for relationship in source.relationships
          where !relationship.isToMany && relationship.destination == name {
            sql +=
              "ALTER TABLE IF EXISTS \(SQLMapping.table(source.name)) DROP CONSTRAINT IF EXISTS "
              + "\(SQLMapping.quoted("\(source.name)_\(relationship.name)_fkey"));\n"
          }
        }
      }
    }
    sql += foreignKeys.map { $0 + ";\n" }.joined()
    if !inTransaction { sql += "COMMIT;" }
    do {
      try connection.run(sql)
    } catch {
      if !inTransaction, connection.isInTransaction { _ = try? connection.run("ROLLBACK") }
      throw error
    }
    _ = try readEntities(connection, onlyCodes: [])
  }

  // MARK: Rows

  /// Rows from blocks reserved in the database for this process alone, so identifiers mean
  /// the same object in every process; `nil` (the store allocates, and the save refuses those
  /// rows) when the server cannot be reached.
  public func allocateRows(entity: ResolvedEntity, count: Int) -> [(row: Int, generation: UInt32)]?
  {
    withLock {
      let name = entity.name
      var rows = pool[name] ?? []
      if rows.count < count {
        let size = max(Self.blockSize, count - rows.count)
        guard let connection = try? connected(),
          let result = try? connection.query(
            "INSERT INTO mg_entities (name, next_row) VALUES (\(SQLMapping.literal(name)), \(size)) "
              + "ON CONFLICT (name) DO UPDATE SET next_row = mg_entities.next_row + \(size) "
              + "RETURNING code, next_row"),
          let code = result.text(0, 0).flatMap(Int64.init),
          let end = result.text(0, 1).flatMap(Int.init)
        else { return nil }
        codes[name] = code
        names[code] = name
        blocks[name, default: []].append((end - size)..<end)
        rows = Array((end - size)..<end).reversed() + rows
      }
      let given = rows.suffix(count)
      pool[name] = Array(rows.dropLast(count))
      return given.map { (row: $0, generation: 0) }
    }
  }

  /// Takes back rows of this process's blocks.
  public func returnRows(_ rows: [(row: Int, generation: UInt32)], entity: ResolvedEntity) -> Bool {
    let name = entity.name
    withLock {
      let mine = rows.map(\.row).filter { row in
        blocks[name]?.contains { $0.contains(row) } ?? false
      }
      pool[name] = ((pool[name] ?? []) + mine).sorted(by: >)
    }
    return true
  }

  /// A row names one object in every process for ever: never reused.
  public var reusesFreedRows: Bool { false }

  // MARK: Commits

  /// Writes the save as one transaction.
  ///
  /// - Returns: ``StoreCommitOutcome/behind`` when another process committed since the store
  ///   last caught up (nothing was written).
  /// - Throws: ``PostgreSQLError``; nothing was written (`connectionLost`: the save was not
  ///   applied, the next save reconnects).
  public func commit(_ commit: StoreCommit) throws -> StoreCommitOutcome {
    if let stage { return try commitInStage(commit, stage) }
    return try withLock { () throws -> StoreCommitOutcome in
      try checkNotMigratedElsewhere()
      let connection = try connected()
      try describe(commit.catalog, connection: connection)
      let token = Self.commitToken()
      let statements = try batch(for: commit, token: token)
      let session = connection.backendPID
      do {
        try connection.runPipelined(statements)
      } catch let error as PostgreSQLError {
        if connection.isInTransaction { _ = try? connection.run("ROLLBACK") }
        if error.sqlState == PostgreSQLSchema.behind
          || error.sqlState == PostgreSQLSchema.rowChanged
        {
          return .behind
        }
        if error.code == .connectionLost, try committedBeforeLoss(token, session: session) {
          return .committed(ticket: nil)
        }
        throw Self.reportingUniqueness(error, in: commit)
      }
      applied += 1
      return .committed(ticket: nil)
    }
  }

  /// A new random token naming one commit in `mg_log` (a version-4 UUID).
  ///
  /// Made from the system's random generator in one call: Foundation's `UUID()` opens, reads
  /// and closes `/dev/urandom` on Linux, three system calls on every save.
  static func commitToken() -> String {
    var generator = SystemRandomNumberGenerator()
    var bytes = (generator.next() as UInt64, generator.next() as UInt64)
    // Version 4 and the RFC 4122 variant, as `UUID()` sets them.
    bytes.0 = bytes.0 & ~(0xF0 << 8) | (0x40 << 8)
    bytes.1 = bytes.1 & ~(0xC0 << 56) | (0x80 << 56)
    let uuid = withUnsafeBytes(of: (bytes.0.bigEndian, bytes.1.bigEndian)) {
      $0.load(as: uuid_t.self)
    }
    return SQLMapping.uuidText(UUID(uuid: uuid))
  }

  /// After a lost connection: whether the save of `token`, sent on the server process
  /// `session`, committed. The server may still be running what it received, so this first
  /// waits until that process has ended (ending it when it lingers), then reads the change
  /// log. Called with `lock` held.
  ///
  /// - Throws: `connectionLost` when the server cannot tell: the save may or may not have
  ///   committed, and the store has not published it.
  private func committedBeforeLoss(_ token: String, session: Int32) throws -> Bool {
    func unknown(_ reason: String) -> PostgreSQLError {
      PostgreSQLError(
        .connectionLost,
        message: "the connection was lost during the save and \(reason), so it is not known "
          + "whether the save committed; it was not published here")
    }
    let connection: PostgreSQLConnection
    do {
      connection = try connected()
    } catch {
      throw unknown("the server cannot be reached (\(error.message))")
    }
    // The old process, if it is still there (never a newer one that took over its number).
    let old =
      "FROM pg_stat_activity WHERE pid = \(session) AND backend_start < "
      + "(SELECT backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid())"
    let deadline = Date().addingTimeInterval(sessionWait)
    while try connection.query("SELECT count(*) \(old)").text(0, 0) != "0" {
      if Date() >= deadline {
        let ended = try connection.query("SELECT pg_terminate_backend(pid, 10000) \(old)")
        guard ended.count == 0 || ended.text(0, 0) == "t" else {
          throw unknown("the server process that ran it (\(session)) does not end")
        }
        break
      }
      Thread.sleep(forTimeInterval: 0.005)
    }
    let found = try connection.query("SELECT version FROM mg_log WHERE token = '\(token)'")
    guard found.count == 1, let version = found.text(0, 0).flatMap(UInt64.init) else {
      return false
    }
    applied = version
    return true
  }

  /// Replaces every stored class and object with `version` (a migrated store) in one
  /// transaction: the tables are dropped and made anew, the objects keep their identifiers.
  ///
  /// - Throws: ``PostgreSQLError``; the database is then left as it was.
  public func rewrite(_ version: StoreVersion) throws {
    if keepsOnlyFetched {
      throw PostgreSQLError(
        .migrationNeedsAllObjects,
        message: "a store opened with residency=fetched holds too few objects to be rewritten; "
          + "it migrates in the database (migrate(_:))")
    }
    try withLock {
      let connection = try connected()
      let previousDescribed = described
      do {
        try connection.run("BEGIN; SELECT mg_begin_commit(\(applied))")
        let tables = try connection.query(
          "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
        var drops: [String] = []
        for index in 0..<tables.count {
          guard let name = tables.text(index, 0) else { continue }
          let owner = name.split(separator: ".", maxSplits: 1).first.map(String.init) ?? name
          if described.contains(owner) { drops.append(SQLMapping.quoted(name)) }
        }
        if !drops.isEmpty {
          try connection.run("DROP TABLE \(drops.joined(separator: ", ")) CASCADE")
        }
        try connection.run("UPDATE mg_entities SET lineage = NULL, ordinal = NULL")
        described = []
        try describe(version.catalog, connection: connection, inTransaction: true)
        let parts = version.tables.enumerated().map { entity, table in
          var rows: [Int] = []
          table.forEachLiveRow { rows.append($0) }
          return StoreCommit.TableRows(entity: entity, table: table, rows: rows)
        }
        let empty = StoreVersion(loaded: [], catalog: version.catalog)
        let commit = StoreCommit(
          number: applied + 1, catalog: version.catalog, previous: empty, tables: parts)
        try connection.runPipelined(
          try batch(for: commit, token: Self.commitToken(), rewriting: true) + [
            PostgreSQLStatement("UPDATE mg_state SET schema_version = version"),
            PostgreSQLStatement("COMMIT"),
          ])
        applied += 1
        schemaVersion = applied
      } catch {
        if connection.isInTransaction { _ = try? connection.run("ROLLBACK") }
        described = previousDescribed
        _ = try? readEntities(connection, onlyCodes: [])
        throw error
      }
    }
  }

  /// How long the change log keeps a save's row that some live listener has not consumed; a
  /// store that was behind by more reads every object it holds again when it catches up.
  var logRetention: TimeInterval {
    get { withLock { retention } }
    set { withLock { retention = newValue } }
  }
  var retention: TimeInterval = 3600
  /// Every this many versions, a save also prunes the change log.
  var pruneEvery: UInt64 {
    get { withLock { pruneInterval } }
    set { withLock { pruneInterval = newValue } }
  }
  var pruneInterval: UInt64 = 64

  /// The database makes a save durable before its commit returns.
  public func waitUntilDurable(_ ticket: UInt64) throws {}
}
