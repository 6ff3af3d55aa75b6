/// A failure made to happen on purpose at one statement, to test what the store does then.
enum PostgreSQLFault: Sendable {
  /// The connection breaks before the statements are sent.
  case loseConnectionBeforeSending
  /// The statements are sent, then the connection breaks before any reply arrives. With
  /// `committing` false, a final `COMMIT;` is not sent, as if the server had crashed first.
  case loseReplyAfterSending(committing: Bool)
  /// The server refuses the statements (they are replaced by one that fails), and the
  /// connection stays open.
  case refuse
}

/// One libpq connection. Not thread-safe: its owner serializes every use.
final class PostgreSQLConnection {
  let library: LibPQ
  private(set) var handle: OpaquePointer?
  /// The server process serving this connection.
  private(set) var backendPID: Int32 = 0
  /// The statements prepared on this connection: the name of each, by its text. Empty on a new
  /// connection (a reconnect prepares again), and emptied when the schema may have changed.
  var prepared: [String: String] = [:] {
    didSet { if prepared.isEmpty { recentlyPrepared.removeAll() } }
  }
  /// The last statements found in ``prepared``, looked up without hashing their text; emptied
  /// with it.
  var recentlyPrepared = RecentLookups<String, String>()
  /// The number of statement names handed out; names are never reused on one connection.
  var preparedNames = 0
  /// Whether the open transaction changed the schema: its end (commit or rollback) empties
  /// ``prepared`` again, since a statement prepared inside it may not fit the schema after.
  var schemaChangedInTransaction = false

  /// Connects with a libpq connection string or `postgresql://` URI.
  ///
  /// - Throws: ``PostgreSQLError`` with code `libraryUnavailable`, `invalidURL`, `unreachable`
  ///   or `authenticationFailed`.
  init(_ conninfo: String) throws(PostgreSQLError) {
    library = try LibPQ.shared.get()
    let handle = conninfo.withCString { library.connect($0) }
    guard let handle else {
      throw PostgreSQLError(.unreachable, message: "libpq could not allocate a connection")
    }
    guard library.status(handle) == 0 else {
      let message = library.errorMessage(handle).map { String(cString: $0) } ?? "unknown error"
      library.finish(handle)
      throw PostgreSQLError(Self.classify(message), message: Self.trimmed(message))
    }
    self.handle = handle
    backendPID = library.backendPID(handle)
    // A save's statements run as the implicit transaction of one pipeline, at the session's
    // isolation: read committed whatever the server's default, since `mg_commit` reads
    // `mg_listeners` after it holds `mg_state`'s row, with a snapshot taken then.
    try run("SET default_transaction_isolation TO 'read committed'")
  }

  deinit { close() }

  /// Closes the connection; later statements throw `connectionLost`.
  func close() {
    if let handle { library.finish(handle) }
    handle = nil
    prepared = [:]
  }

  /// Whether the connection is still up, as far as libpq knows.
  var isHealthy: Bool { handle.map { library.status($0) == 0 } ?? false }

  /// Whether a transaction is open (or failed and waits for its rollback).
  var isInTransaction: Bool {
    guard let handle else { return false }
    let status = library.transactionStatus(handle)
    return status == 2 || status == 3
  }

  /// The socket to wait on for notifications.
  var socket: Int32 { handle.map { library.socket($0) } ?? -1 }

  /// The failure tests make happen at a statement they choose; `nil` runs every statement.
  var injectFault: (@Sendable (String) -> PostgreSQLFault?)?

  /// Runs `sql` (one or more statements, sent at once) and returns the result of each.
  ///
  /// - Throws: ``PostgreSQLError``: `server` with the SQLSTATE of the first statement that
  ///   failed (the rest were not run), `connectionLost` when the connection broke.
  @discardableResult
  func run(_ sql: String) throws(PostgreSQLError) -> [PostgreSQLResult] {
    guard let handle, library.status(handle) == 0 else { throw lost("the connection is closed") }
    let changesSchema = Self.changesSchema(sql)
    defer { noteSchemaChange(changesSchema) }
    var sql = sql
    if let fault = injectFault?(sql) {
      if case .refuse = fault {
        sql = "SELECT 1 / 0"
      } else {
        try inject(fault, sql: sql, handle: handle)
      }
    }
    guard sql.withCString({ library.sendQuery(handle, $0) }) == 1 else {
      throw lost(connectionMessage)
    }
    var results: [PostgreSQLResult] = []
    var failure: PostgreSQLError?
    while let raw = library.getResult(handle) {
      let result = PostgreSQLResult(library: library, raw: raw)
      let status = library.resultStatus(raw)
      // 1 COMMAND_OK, 2 TUPLES_OK, 0 EMPTY_QUERY; 5 BAD_RESPONSE, 6 NONFATAL, 7 FATAL_ERROR.
      if status == 5 || status == 7, failure == nil { failure = serverError(raw) }
      results.append(result)
    }
    if library.status(handle) != 0 { throw closedAsLost() }
    if let failure { throw ended(by: failure) }
    return results
  }

  /// Runs `sql` and returns its last result.
  @discardableResult
  func query(_ sql: String) throws(PostgreSQLError) -> PostgreSQLResult {
    let results = try run(sql)
    guard let last = results.last else {
      throw PostgreSQLError(.server, message: "no result for: \(sql.prefix(80))")
    }
    return last
  }

  /// Reads what arrived on the socket; returns the server processes that sent the
  /// notifications received.
  ///
  /// - Throws: `connectionLost` when the connection broke.
  func drainNotifications() throws(PostgreSQLError) -> [Int32] {
    guard let handle, library.consumeInput(handle) == 1 else { throw lost(connectionMessage) }
    var senders: [Int32] = []
    while let notification = library.notifies(handle) {
      // PGnotify: `char *relname`, then `int be_pid`.
      senders.append(
        notification.load(fromByteOffset: MemoryLayout<UnsafeRawPointer>.size, as: Int32.self))
      library.freeMemory(notification)
    }
    return senders
  }

  /// Breaks the connection as `fault` says, around sending `sql`.
  private func inject(_ fault: PostgreSQLFault, sql: String, handle: OpaquePointer)
    throws(PostgreSQLError) -> Never
  {
    switch fault {
    case .loseConnectionBeforeSending, .refuse:
      break
    case .loseReplyAfterSending(let committing):
      var text = sql
      if !committing, text.hasSuffix("COMMIT;") { text.removeLast("COMMIT;".count) }
      // Blocking mode: every byte is written before this returns; closing then tells the
      // server the client is gone once it has run what it received.
      _ = text.withCString { library.sendQuery(handle, $0) }
    }
    close()
    throw lost("the connection broke (injected fault)")
  }

  /// The error a failed result reports: its SQLSTATE, message, table and detail.
  func serverError(_ raw: OpaquePointer) -> PostgreSQLError {
    let state = library.resultErrorField(raw, 67).map { String(cString: $0) }  // 'C'
    let message = library.resultErrorMessage(raw).map { String(cString: $0) } ?? ""
    var failure = PostgreSQLError(.server, sqlState: state, message: Self.trimmed(message))
    failure.table = library.resultErrorField(raw, 116).map { String(cString: $0) }  // 't'
    failure.detail = library.resultErrorField(raw, 68).map { String(cString: $0) }  // 'D'
    return failure
  }

  /// `failure`, or `connectionLost` (the connection closed) when its state says the server
  /// ended the session.
  func ended(by failure: PostgreSQLError) -> PostgreSQLError {
    // A class 08 or 57P0x state means the server ended the session.
    guard let state = failure.sqlState, state.hasPrefix("08") || state.hasPrefix("57P0") else {
      return failure
    }
    // The session is over even where libpq has not noticed yet: the next use reconnects.
    close()
    return lost(failure.message)
  }

  var connectionMessage: String {
    handle.flatMap { library.errorMessage($0) }.map { Self.trimmed(String(cString: $0)) }
      ?? "the connection is closed"
  }

  /// Closes the broken connection and returns the `connectionLost` error carrying libpq's
  /// message, read before the close discards it.
  func closedAsLost() -> PostgreSQLError {
    let message = connectionMessage
    close()
    return lost(message)
  }

  func lost(_ message: String) -> PostgreSQLError {
    PostgreSQLError(.connectionLost, message: "the connection to the server was lost: \(message)")
  }

  static func trimmed(_ message: String) -> String {
    message.split(whereSeparator: \.isNewline).joined(separator: "; ")
  }

  /// The code of a failed connection attempt, from libpq's message.
  static func classify(_ message: String) -> PostgreSQLError.Code {
    let text = message.lowercased()
    if text.contains("invalid connection option") || text.contains("invalid uri")
      || text.contains("invalid percent-encoded") || text.contains("missing \"=\"")
      || text.contains("invalid port") || text.contains("invalid integer value")
    {
      return .invalidURL
    }
    if text.contains("authentication failed") || text.contains("no pg_hba.conf entry")
      || (text.contains("role") && text.contains("does not exist"))
      || (text.contains("database") && text.contains("does not exist"))
      || text.contains("password") || text.contains("permission denied")
    {
      return .authenticationFailed
    }
    return .unreachable
  }
}

/// The rows of one statement, read in libpq's text format.
final class PostgreSQLResult {
  let library: LibPQ
  let raw: OpaquePointer

  init(library: LibPQ, raw: OpaquePointer) {
    self.library = library
    self.raw = raw
  }

  deinit { library.clear(raw) }

  /// The number of rows.
  var count: Int { Int(library.tupleCount(raw)) }

  /// The number of columns.
  var columns: Int { Int(library.fieldCount(raw)) }

  /// The text of a field, `nil` for SQL NULL.
  func text(_ row: Int, _ column: Int) -> String? {
    guard library.getIsNull(raw, Int32(row), Int32(column)) == 0,
      let value = library.getValue(raw, Int32(row), Int32(column))
    else { return nil }
    return String(cString: value)
  }

  /// The raw C string of a field (valid while the result lives), `nil` for SQL NULL.
  func cString(_ row: Int, _ column: Int) -> UnsafePointer<CChar>? {
    guard library.getIsNull(raw, Int32(row), Int32(column)) == 0 else { return nil }
    return library.getValue(raw, Int32(row), Int32(column))
  }
}
