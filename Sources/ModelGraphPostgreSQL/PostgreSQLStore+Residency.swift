internal import Foundation
public import ModelGraphCore

extension PostgreSQLStore {
  /// The URL without its `residency` query item, and whether that item says `fetched`.
  ///
  /// - Throws: ``PostgreSQLError`` with code `invalidURL` for a value other than `all` or
  ///   `fetched`.
  static func residency(of url: String) throws -> (url: String, keepsOnlyFetched: Bool) {
    // Percent-encoded items: the other parameters go to libpq exactly as given.
    guard url.contains("residency="), var components = URLComponents(string: url),
      let items = components.percentEncodedQueryItems
    else { return (url, false) }
    var keepsOnlyFetched = false
    for item in items where item.name == "residency" {
      switch item.value {
      case "fetched": keepsOnlyFetched = true
      case "all": keepsOnlyFetched = false
      default:
        throw PostgreSQLError(
          .invalidURL,
          message: "residency=\(item.value ?? "") is neither `all` nor `fetched`")
      }
    }
    let rest = items.filter { $0.name != "residency" }
    components.percentEncodedQueryItems = rest.isEmpty ? nil : rest
    return (components.string ?? url, keepsOnlyFetched)
  }

  /// The SQL a fetch of `request` runs, without running it (for `explain`).
  public func sqlFetch(for request: QueryRequest, catalog: SchemaCatalog) -> SQLFetch {
    withLock { compiler(catalog).compile(request) }
  }

  func compiler(_ catalog: SchemaCatalog) -> SQLQueryCompiler {
    SQLQueryCompiler(catalog: catalog, described: described, unicode: unicode, codes: codes)
  }

  /// Runs `request` in PostgreSQL and makes resident, as a new version of the in-memory store,
  /// every object it selects that is not resident yet, with every object those reach through
  /// relationships (so that no relationship of a resident object points at a missing one).
  ///
  /// The rows are read at the version the store holds, catching up first when other processes
  /// committed since. The engine then runs the request over the resident objects: since the
  /// SQL selected a superset of the request's answer in the database (see ``SQLFetch``), the
  /// engine's answer is the one a fully loaded store gives at the version returned.
  /// - Parameter holders: A condition selecting, among the request's classes, objects to make
  ///   resident as well; the request's window (when pushed) then takes as many more rows as
  ///   the database holds such objects (see ``SQLFetch``).
  /// - Returns: The SQL run, and the version of the in-memory store that holds what it read:
  ///   the one published with the rows loaded, or the one the SQL read at when it loaded
  ///   nothing. Newer versions may exist already (the store catches up with other processes
  ///   meanwhile); a session answering the request moves onto this one.
  /// - Throws: ``PostgreSQLError``; nothing was loaded.
  public func makeResident(for request: QueryRequest, holders: QueryExpression? = nil) throws
    -> (sql: SQLFetch, version: StoreVersion)
  {
    try makeResident { connection, catalog in
      let compiler = compiler(catalog)
      let fetch =
        holders.map { compiler.compile(request, holders: $0) } ?? compiler.compile(request)
      let result = try connection.query(fetch.sql)
      return (fetch, (0..<result.count).compactMap { result.text($0, 0).flatMap(Int64.init) })
    }
  }

  /// Makes resident the object of class `entity` and row `row` if the database holds it,
  /// with every object it reaches, as ``makeResident(for:holders:)`` does.
  ///
  /// - Throws: ``PostgreSQLError``; nothing was loaded.
  public func makeResident(entity: String, row: Int) throws {
    _ = try makeResident { _, _ -> ((), [Int64]) in
      guard let code = codes[entity] else { return ((), []) }
      return ((), [code << SQLMapping.rowBits | Int64(row)])
    }
  }

  /// Makes resident the objects `select` names (called with `lock` held, in a read-only
  /// snapshot at the version the store holds) and every object they reach; returns what
  /// `select` returned and the in-memory version that holds what it read.
  private func makeResident<Selected>(
    _ select: (PostgreSQLConnection, SchemaCatalog) throws -> (Selected, [Int64])
  ) throws -> (Selected, StoreVersion) {
    try retryingWhileBehind("fetch") { store -> (Selected, StoreVersion)? in
      let current = store.version
      let isResident = Self.residency(in: current)
      guard
        let read = try readAtApplied({ connection in
          let (fetch, ids) = try select(connection, current.catalog)
          let loaded = try loadClosure(
            of: ids, connection: connection, known: current.catalog,
            isResident: { isResident(self.names[$0 >> SQLMapping.rowBits], $0) })
          return (fetch, loaded)
        })
      else { return nil }
      let (from, (fetch, loaded)) = read
      if loaded.rows.isEmpty && loaded.newEntities.isEmpty {
        // Only a save of this process can have published since (others wait for
        // `catchUpLock`): it committed at once, so the SQL may have read it.
        return store.version.number == current.number ? (fetch, current) : nil
      }
      let published = try store.publishForeign { current in
        try withLock {
          () throws -> (catalog: SchemaCatalog, tables: [Table], written: [Int: [Int]])? in
          guard applied == from else { return nil }
          var catalog = current.catalog
          for description in loaded.newEntities
          where catalog.entity(named: description.name) == nil {
            catalog = try catalog.adding([description])
          }
          var tables = current.tables
          tables += catalog.entities.dropFirst(tables.count).map { Table(entity: $0) }
          try apply(loaded.rows, to: &tables, catalog: catalog)
          // Objects brought into memory are not changes: observers hear of none.
          return (catalog, tables, [:])
        }
      }
      return published.map { (fetch, $0) }
    }
  }

  /// The number of objects `request` selects in the database (before its offset and limit),
  /// counted by PostgreSQL at the version the store holds; `nil`, with nothing run, when a
  /// part of the request has no exact SQL translation.
  ///
  /// - Parameter excluding: Objects, by class name and row, left out of the count (those a
  ///   context changed, which it counts over its own view).
  /// - Returns: The count, and the version of the in-memory store it was made at (newer
  ///   versions may exist already; a session answering the request moves onto this one).
  /// - Throws: ``PostgreSQLError``.
  public func count(for request: QueryRequest, excluding: [(entity: String, row: Int)] = [])
    throws -> (count: Int, version: StoreVersion)?
  {
    var whole = request
    (whole.offset, whole.limit) = (0, nil)
    return try retryingWhileBehind("count") { store -> (count: Int, version: StoreVersion)?? in
      let current = store.version
      let catalog = current.catalog
      // `codes` grows under the lock as other threads allocate rows.
      let (fetch, ids) = withLock {
        (
          compiler(catalog).compile(whole),
          excluding.compactMap { object in
            codes[object.entity].map { $0 << SQLMapping.rowBits | Int64(object.row) }
          }
        )
      }
      let filter =
        ids.isEmpty
        ? "" : " WHERE s.id <> ALL ('{\(ids.map(String.init).joined(separator: ","))}'::bigint[])"
      guard fetch.fallbacks.isEmpty else { return .some(nil) }
      guard
        let read = try readAtApplied({ connection in
          try connection.query("SELECT count(*) FROM (\(fetch.sql)) s\(filter)").text(0, 0)
        })
      else { return nil }
      // A save of this process may have published since, and the count read it: again.
      guard store.version.number == current.number else { return nil }
      return .some(read.1.flatMap(Int.init).map { ($0, current) })
    }
  }

  /// The number of objects `request` selects in the database (before its offset and limit),
  /// as ``count(for:excluding:)`` counts them, leaving out also the objects of its classes
  /// that `holders` selects: those are made resident (with every object they reach, as
  /// ``makeResident(for:holders:)`` does), read in the same snapshot as the count, for the
  /// caller to count over its own view.
  ///
  /// - Parameters:
  ///   - excluding: Objects, by class name and row, left out of the count.
  ///   - holders: A condition on the objects of the request's classes.
  /// - Returns: The count, the objects `holders` selected (class name and row), and the
  ///   version of the in-memory store holding them; `nil`, with nothing run, when a part of
  ///   the request has no exact SQL translation.
  /// - Throws: ``PostgreSQLError``; nothing was loaded.
  public func count(
    for request: QueryRequest, excluding: [(entity: String, row: Int)],
    holders: QueryExpression
  ) throws -> (count: Int, held: [(entity: String, row: Int)], version: StoreVersion)? {
    var whole = request
    (whole.offset, whole.limit) = (0, nil)
    let (counted, version) = try makeResident {
      connection, catalog -> ((count: Int, held: [(entity: String, row: Int)])?, [Int64]) in
      let compiler = compiler(catalog)
      let fetch = compiler.compile(whole)
      guard fetch.fallbacks.isEmpty else { return (nil, []) }
      let selected = try connection.query(compiler.select(holders, of: request))
      let ids = (0..<selected.count).compactMap { selected.text($0, 0).flatMap(Int64.init) }
      let left =
        ids
        + excluding.compactMap { object in
          codes[object.entity].map { $0 << SQLMapping.rowBits | Int64(object.row) }
        }
      let filter =
        left.isEmpty
        ? "" : " WHERE s.id <> ALL ('{\(left.map(String.init).joined(separator: ","))}'::bigint[])"
      guard
        let count = try connection.query("SELECT count(*) FROM (\(fetch.sql)) s\(filter)")
          .text(0, 0).flatMap(Int.init)
      else { return (nil, []) }
      let mask = (Int64(1) << SQLMapping.rowBits) - 1
      let objects = ids.compactMap { id in
        names[id >> SQLMapping.rowBits].map { (entity: $0, row: Int(id & mask)) }
      }
      return ((count, objects), ids)
    }
    return counted.map { ($0.count, $0.held, version) }
  }

  /// Runs `attempt` with `catchUpLock` held until it gives an answer (`nil`: other processes
  /// committed meanwhile, try again), at most 50 times.
  ///
  /// - Throws: ``PostgreSQLError`` with code `closed` once the store is closed, `server` when
  ///   other saves kept the attempts from answering; or what `attempt` throws.
  private func retryingWhileBehind<T>(_ activity: String, _ attempt: (Store) throws -> T?)
    throws -> T
  {
    catchUpLock.lock()
    defer { catchUpLock.unlock() }
    for _ in 0..<50 {
      guard let store, !isClosed else {
        throw PostgreSQLError(.closed, message: "the store was closed")
      }
      if let answer = try attempt(store) { return answer }
    }
    throw PostgreSQLError(
      .server, message: "other saves kept changing the database while a \(activity) read it")
  }

  /// Runs `read` with `lock` held, in a read-only snapshot of the database at the version the
  /// store holds, and returns that version with what `read` returned; `nil` after catching up
  /// when other processes had committed since (called with `catchUpLock` held).
  private func readAtApplied<T>(_ read: (PostgreSQLConnection) throws -> T) throws -> (
    UInt64, T
  )? {
    let answer = try withLock { () throws -> (UInt64, T)? in
      if let stage { return (applied, try readInStage(stage, read)) }
      let connection = try connected()
      try connection.run("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
      defer { if connection.isInTransaction { _ = try? connection.run("ROLLBACK") } }
      let latest =
        try connection.query("SELECT version FROM mg_state").text(0, 0).flatMap(UInt64.init)
        ?? 0
      guard latest == applied else { return nil }
      let value = try read(connection)
      try connection.run("COMMIT")
      return (applied, value)
    }
    if answer == nil { try catchUpHoldingLock() }
    return answer
  }

  /// Whether an object (by its class name and identifier) is resident in `version`.
  static func residency(in version: StoreVersion) -> (String?, Int64) -> Bool {
    let mask = (Int64(1) << SQLMapping.rowBits) - 1
    return { name, id in
      guard let name, let entity = version.catalog.entity(named: name),
        entity.index < version.tables.count
      else { return false }
      let table = version.tables[entity.index]
      let row = Int(id & mask)
      return row < table.rowCount && table.isAlive(row)
    }
  }

  /// Rows read to be made resident, by class, and the classes first met on the way.
  struct Loaded {
    var rows: [String: [FetchedRows]] = [:]
    var newEntities: [EntityDescription] = []
  }

  /// Reads the objects of `ids` that are not resident and, transitively, every object they
  /// reference that is not; called with `lock` held, inside a transaction.
  func loadClosure(
    of ids: [Int64], connection: PostgreSQLConnection, known: SchemaCatalog,
    isResident: (Int64) -> Bool
  ) throws -> Loaded {
    var loaded = Loaded()
    var catalog = known
    var seen: Set<Int64> = []
    var pending = ids.filter { !isResident($0) && seen.insert($0).inserted }
    while !pending.isEmpty {
      var byCode: [Int64: [Int64]] = [:]
      for id in pending { byCode[id >> SQLMapping.rowBits, default: []].append(id) }
      pending = []
      let unknown = byCode.keys.contains { code in
        names[code].map { catalog.entity(named: $0) == nil } ?? true
      }
      if unknown {
        let added = try readEntities(connection, onlyCodes: nil).filter {
          catalog.entity(named: $0.name) == nil
        }
        for description in added { catalog = try catalog.adding([description]) }
        loaded.newEntities += added
      }
      for (code, group) in byCode.sorted(by: { $0.key < $1.key }) {
        guard let name = names[code], let entity = catalog.entity(named: name) else { continue }
        let queries = FetchedRows.queries(for: entity, ids: group)
        var joins: [Int: PostgreSQLResult] = [:]
        for (slot, sql) in queries.joins { joins[slot] = try connection.query(sql) }
        let rows = FetchedRows(entity: name, rows: try connection.query(queries.rows), joins: joins)
        loaded.rows[name, default: []].append(rows)
        for reference in rows.references(of: entity)
        where !isResident(reference) && seen.insert(reference).inserted {
          pending.append(reference)
        }
      }
    }
    return loaded
  }

  /// Writes `rows` into copies of their tables; called with `lock` held.
  func apply(_ rows: [String: [FetchedRows]], to tables: inout [Table], catalog: SchemaCatalog)
    throws
  {
    for (name, parts) in rows {
      guard let entity = catalog.entity(named: name) else { continue }
      let table = tables[entity.index].copy()
      for part in parts {
        _ = try part.apply(to: table, keepingUnset: stage != nil) { code in
          names[code].flatMap { catalog.entity(named: $0)?.index }
        }
      }
      tables[entity.index] = table
    }
  }
}

extension FetchedRows {
  /// The identifiers the rows' relationships hold.
  func references(of entity: ResolvedEntity) -> [Int64] {
    var found: [Int64] = []
    let toOne = entity.relationships.filter { !$0.isToMany }.count
    let first = entity.attributes.count + 1
    for index in 0..<rows.count {
      for column in first..<(first + toOne) {
        if let id = rows.text(index, column).flatMap(Int64.init) { found.append(id) }
      }
    }
    for result in joins.values {
      for index in 0..<result.count {
        if let id = result.text(index, 1).flatMap(Int64.init) { found.append(id) }
      }
    }
    return found
  }
}
