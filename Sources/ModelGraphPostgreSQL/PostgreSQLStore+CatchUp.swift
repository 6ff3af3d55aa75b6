internal import Foundation
internal import ModelGraphCore

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

extension PostgreSQLStore {
  /// Publishes what other processes committed since the store last caught up, as one new
  /// version of the in-memory store.
  ///
  /// - Throws: ``PostgreSQLError`` when the server cannot be read; nothing is published.
  public func catchUp() throws {
    catchUpLock.lock()
    defer { catchUpLock.unlock() }
    try catchUpHoldingLock()
  }

  /// ``catchUp()``, with `catchUpLock` held.
  func catchUpHoldingLock() throws {
    // Read before taking `lock`: the store's lock is always taken before this one.
    let version = store?.version
    let isResident = version.map { Self.residency(in: $0) }
    guard
      let fetched = try withLock({ () throws -> Fetched? in
        try fetchNewCommits(version, isResident: isResident)
      })
    else {
      return
    }
    try store?.publishForeign { current in
      try withLock {
        () throws -> (catalog: SchemaCatalog, tables: [Table], written: [Int: [Int]])? in
        guard applied == fetched.from else { return nil }
        applied = fetched.to
        var catalog = current.catalog
        for description in fetched.newEntities + fetched.reached.newEntities
        where catalog.entity(named: description.name) == nil {
          catalog = try catalog.adding([description])
        }
        var tables = current.tables
        tables += catalog.entities.dropFirst(tables.count).map { Table(entity: $0) }
        var written: [Int: [Int]] = [:]
        let mask = (Int64(1) << SQLMapping.rowBits) - 1
        for (name, part) in fetched.parts {
          guard let entity = catalog.entity(named: name) else { continue }
          let table = tables[entity.index].copy()
          for id in part.ids { table.setDead(row: Int(id & mask)) }
          _ = try part.rows.apply(to: table) { code in
            names[code].flatMap { catalog.entity(named: $0)?.index }
          }
          tables[entity.index] = table
          written[entity.index] = part.ids.map { Int($0 & mask) }.sorted()
        }
        // Objects the changed ones now reference, brought into memory (not changes).
        try apply(fetched.reached.rows, to: &tables, catalog: catalog)
        return (catalog, tables, written)
      }
    }
  }

  /// The identifiers of the objects `version` holds; called with `lock` held.
  private func residentIdentifiers(_ version: StoreVersion?) -> [Int64] {
    guard let version else { return [] }
    var ids: [Int64] = []
    for (index, table) in version.tables.enumerated() {
      guard let code = codes[version.catalog.entities[index].name] else { continue }
      table.forEachLiveRow { ids.append(code << SQLMapping.rowBits | Int64($0)) }
    }
    return ids
  }

  /// What other processes committed between two database versions.
  struct Fetched {
    var from: UInt64
    var to: UInt64
    var newEntities: [EntityDescription]
    var parts: [String: (ids: [Int64], rows: FetchedRows)]
    /// With only fetched objects resident: the objects the changed ones reach that were not.
    var reached = Loaded()
  }

  /// Reads, in one snapshot, the rows the change log names since the applied version (with
  /// only fetched objects resident: the resident ones, and what they now reach); called with
  /// `lock` held.
  private func fetchNewCommits(
    _ version: StoreVersion?, isResident: ((String?, Int64) -> Bool)?
  ) throws -> Fetched? {
    let known = version?.catalog ?? SchemaCatalog()
    let connection = try connected()
    try connection.run("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
    defer { if connection.isInTransaction { _ = try? connection.run("ROLLBACK") } }
    let state = try connection.query("SELECT version, schema_version FROM mg_state")
    let latest = state.text(0, 0).flatMap(UInt64.init) ?? 0
    guard latest > applied else { return nil }
    try checkSchema(state.text(0, 1).flatMap(UInt64.init) ?? 0)
    if keepsOnlyFetched, known.entities.contains(where: { !described.contains($0.name) }) {
      // Another process may have given those classes their tables (its first save of
      // them): SQL reads only described classes, and the log names no resident object of
      // theirs to tell.
      _ = try readEntities(connection, onlyCodes: [])
    }
    let range = "FROM mg_log WHERE version > \(applied) AND version <= \(latest)"
    let logged = try connection.query("SELECT count(*) \(range)").text(0, 0).flatMap(UInt64.init)
    var changed: [Int64] = []
    if logged == latest - applied {
      let log = try connection.query("SELECT DISTINCT unnest(ids) \(range)")
      changed = (0..<log.count).compactMap { log.text($0, 0).flatMap(Int64.init) }
    } else {
      // The log was pruned past the applied version: every object is read again.
      changed = residentIdentifiers(version)
      if !keepsOnlyFetched {
        _ = try readEntities(connection, onlyCodes: [])
        for name in described.sorted() {
          let all = try connection.query("SELECT id FROM \(SQLMapping.table(name))")
          changed += (0..<all.count).compactMap { all.text($0, 0).flatMap(Int64.init) }
        }
      }
    }
    var byCode: [Int64: [Int64]] = [:]
    for id in Set(changed) {
      if keepsOnlyFetched, let isResident, !isResident(names[id >> SQLMapping.rowBits], id) {
        continue
      }
      byCode[id >> SQLMapping.rowBits, default: []].append(id)
    }
    var newEntities: [EntityDescription] = []
    let unknown = byCode.keys.contains { code in
      names[code].map { known.entity(named: $0) == nil } ?? true
    }
    if unknown {
      newEntities = try readEntities(connection, onlyCodes: nil).filter {
        known.entity(named: $0.name) == nil
      }
    }
    var catalogNow = known
    for description in newEntities where catalogNow.entity(named: description.name) == nil {
      catalogNow = try catalogNow.adding([description])
    }
    var parts: [String: (ids: [Int64], rows: FetchedRows)] = [:]
    for (code, ids) in byCode {
      guard let name = names[code], let entity = catalogNow.entity(named: name) else { continue }
      let queries = FetchedRows.queries(for: entity, ids: ids)
      var joins: [Int: PostgreSQLResult] = [:]
      for (slot, sql) in queries.joins { joins[slot] = try connection.query(sql) }
      parts[name] = (
        ids, FetchedRows(entity: name, rows: try connection.query(queries.rows), joins: joins)
      )
    }
    var fetched = Fetched(from: applied, to: latest, newEntities: newEntities, parts: parts)
    if keepsOnlyFetched, let isResident {
      var references: [Int64] = []
      for (name, part) in parts {
        guard let entity = catalogNow.entity(named: name) else { continue }
        references += part.rows.references(of: entity)
      }
      fetched.reached = try loadClosure(
        of: references, connection: connection, known: catalogNow,
        isResident: { isResident(self.names[$0 >> SQLMapping.rowBits], $0) })
    }
    try connection.run("COMMIT")
    return fetched
  }

  /// Records in `mg_listeners`, under the listener's server process, the version this store
  /// holds every commit of: the change log's rows up to the oldest such version of the live
  /// listeners are pruned.
  ///
  /// The record is advisory (a lost one only keeps rows longer), so it commits without
  /// waiting for the disk, and the listener sends it at most twice a second: a durable commit
  /// per notification held the next catch-up back by a disk sync.
  ///
  /// With `registering`, the record is made while updating `mg_state`'s row (its
  /// `registrations` count), which every save updates before it decides whether to signal: a
  /// save either sees the record, or finds the count moved since its statement began (and
  /// signals either way), or commits before the record does, and the catch-up that follows
  /// reads it.
  /// - Returns: The version recorded, or `nil` when the record could not be made.
  @discardableResult
  func recordConsumed(on connection: PostgreSQLConnection, registering: Bool = false) -> UInt64? {
    let version = appliedVersion
    let made =
      (try? connection.run(
        "BEGIN; SET LOCAL synchronous_commit TO off; "
          + (registering ? "UPDATE mg_state SET registrations = registrations + 1; " : "")
          + "INSERT INTO mg_listeners (pid, applied) VALUES (pg_backend_pid(), \(version)) "
          + "ON CONFLICT (pid) DO UPDATE SET applied = EXCLUDED.applied; COMMIT")) != nil
    if connection.isInTransaction { _ = try? connection.run("ROLLBACK") }
    // Read after the record: it counts this listener's registration and every one before.
    if made, let count = try? connection.query("SELECT registrations FROM mg_state").text(0, 0),
      let seen = Int64(count)
    {
      registrationsSeen = seen
    }
    return made ? version : nil
  }

  /// Starts the thread that waits for other processes' notifications and catches up.
  func startListening() {
    let (url, channel) = (self.url, self.channel)
    let thread = Thread { [weak self] in
      var listener: PostgreSQLConnection?
      var mayHaveQueued = false
      var recorded: UInt64 = 0
      var lastRecord = Date.distantPast
      while true {
        guard let store = self, !store.isClosed else { return }
        if listener == nil {
          listener = try? PostgreSQLConnection(url)
          guard let connection = listener,
            (try? connection.run("LISTEN \(channel)")) != nil
          else {
            listener = nil
            Thread.sleep(forTimeInterval: 0.2)
            continue
          }
          // Registered, so that every later save signals; then whatever was committed before.
          // A listener that is not registered would hear nothing: it connects again.
          store.listenerPID = connection.backendPID
          guard store.recordConsumed(on: connection, registering: true) != nil else {
            listener = nil
            Thread.sleep(forTimeInterval: 0.2)
            continue
          }
          try? store.catchUp()
          recorded = store.recordConsumed(on: connection) ?? recorded
          lastRecord = Date()
          store.withLock { store.listening = true }
          mayHaveQueued = true
        }
        guard let connection = listener else { continue }
        // The time first: the applied version is read under the store's lock, which a save
        // holds through its round trip (this thread wakes at each of its own saves).
        if Date().timeIntervalSince(lastRecord) >= 0.5, recorded != store.appliedVersion {
          recorded = store.recordConsumed(on: connection) ?? recorded
          lastRecord = Date()
          // Its reply may have brought notifications into libpq.
          mayHaveQueued = true
        }
        var descriptor = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
        // After a statement on this connection, notifications may already wait in libpq
        // (read with its reply): no poll then.
        let ready = mayHaveQueued ? 1 : poll(&descriptor, 1, 100)
        mayHaveQueued = false
        guard ready > 0 else { continue }
        do {
          var senders = try connection.drainNotifications()
          while !senders.isEmpty {
            // A store's own commits are already published.
            let own = store.backendPID
            if senders.contains(where: { $0 != own }) { try? store.catchUp() }
            senders = try connection.drainNotifications()
          }
        } catch {
          listener = nil
        }
      }
    }
    thread.name = "ModelGraph.PostgreSQL.listener"
    thread.start()
  }
}
