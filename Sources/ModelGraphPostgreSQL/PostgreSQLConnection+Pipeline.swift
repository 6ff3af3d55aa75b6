/// Statements sent at once in libpq's pipeline mode, each prepared once per connection.
extension PostgreSQLConnection {
  /// The most statements one connection keeps prepared; a shape met after that is sent
  /// unnamed (parsed and planned each time), so the server's memory stays bounded.
  static let preparedLimit = 1_000

  /// Runs `statements` in order in one round trip: each new shape is prepared (parsed once,
  /// kept by name for the connection's later uses), then every statement runs with its values
  /// as parameters. A failed statement skips the rest, as in one query string.
  ///
  /// Outside a transaction block (no BEGIN among them, none open), the statements are one
  /// implicit transaction: committed after the last, or rolled back whole when any fails or
  /// the commit does (a deferred constraint).
  ///
  /// - Throws: ``PostgreSQLError``: `server` with the SQLSTATE of the first statement that
  ///   failed (the rest were not run) or of the commit, `connectionLost` when the connection
  ///   broke.
  func runPipelined(_ statements: [PostgreSQLStatement]) throws(PostgreSQLError) {
    guard let handle, library.status(handle) == 0 else { throw lost("the connection is closed") }
    defer { noteSchemaChange(false) }
    var statements = statements
    if let fault = injectFault?(PostgreSQLStatement.text(of: statements)) {
      switch fault {
      case .refuse:
        statements = [PostgreSQLStatement("SELECT 1 / 0", reused: false)]
      case .loseConnectionBeforeSending:
        close()
        throw lost("the connection broke (injected fault)")
      case .loseReplyAfterSending(let committing):
        // Not committing: no COMMIT ending a transaction block, or no end of the pipeline
        // (whose implicit transaction it commits).
        var syncing = true
        if !committing {
          if statements.last?.sql == "COMMIT" { statements.removeLast() } else { syncing = false }
        }
        // Every byte is flushed before the connection closes; the server then runs what it
        // received and finds the client gone.
        _ = try? send(statements, handle: handle, syncing: syncing)
        close()
        throw lost("the connection broke (injected fault)")
      }
    }
    let sent = try send(statements, handle: handle)
    var failure: PostgreSQLError?
    // The status of the first result of each command; a command's results end with NULL, as
    // does the failure of the implicit transaction's commit, after the last command.
    var statuses: [Int32] = []
    var finished = 0
    while true {
      guard let raw = library.getResult(handle) else {
        finished += 1
        if library.status(handle) != 0 || finished > sent.commands + 1 { throw closedAsLost() }
        continue
      }
      let status = library.resultStatus(raw)
      // 10 PIPELINE_SYNC: the end of the batch.
      if status == 10 {
        library.clear(raw)
        break
      }
      if statuses.count == finished { statuses.append(status) }
      // 5 BAD_RESPONSE, 7 FATAL_ERROR; 11 PIPELINE_ABORTED follows a failure.
      if status == 5 || status == 7, failure == nil { failure = serverError(raw) }
      library.clear(raw)
      if library.status(handle) != 0 { throw closedAsLost() }
    }
    guard library.exitPipelineMode(handle) == 1 else { throw closedAsLost() }
    // A statement is kept only where its preparation succeeded.
    for (sql, name, command) in sent.preparing where command < statuses.count {
      if statuses[command] == 1 { prepared[sql] = name }
    }
    if let failure { throw ended(by: failure) }
  }

  /// The name `sql` is prepared under on this connection, or `nil`.
  func preparedName(_ sql: String) -> String? {
    if let name = recentlyPrepared[sql] { return name }
    guard let name = prepared[sql] else { return nil }
    recentlyPrepared.remember(sql, name)
    return name
  }

  /// Sends `statements` and the pipeline's end (unless `syncing` is false) in pipeline mode,
  /// and flushes them.
  ///
  /// - Returns: the number of commands sent (each preparation is one), and the preparations:
  ///   the text, the name and the command's position.
  private func send(
    _ statements: [PostgreSQLStatement], handle: OpaquePointer, syncing: Bool = true
  ) throws(PostgreSQLError) -> (commands: Int, preparing: [(String, String, Int)]) {
    guard library.enterPipelineMode(handle) == 1 else { throw lost(connectionMessage) }
    var commands = 0
    var preparing: [(String, String, Int)] = []
    var pending: [String: String] = [:]
    for statement in statements {
      var name = statement.reused ? preparedName(statement.sql) ?? pending[statement.sql] : nil
      if name == nil, statement.reused, prepared.count + pending.count < Self.preparedLimit {
        preparedNames += 1
        let fresh = "mg_p\(preparedNames)"
        let count = Int32(statement.parameters.count)
        guard library.sendPrepare(handle, fresh, statement.sql, count, nil) == 1 else {
          throw lost(connectionMessage)
        }
        preparing.append((statement.sql, fresh, commands))
        pending[statement.sql] = fresh
        commands += 1
        name = fresh
      }
      guard
        Self.withParameters(
          statement.parameters,
          { count, values in
            if let name {
              library.sendQueryPrepared(handle, name, count, values, nil, nil, 0)
            } else {
              library.sendQueryParams(handle, statement.sql, count, nil, values, nil, nil, 0)
            }
          }) == 1
      else { throw lost(connectionMessage) }
      commands += 1
    }
    guard !syncing || library.pipelineSync(handle) == 1, library.flush(handle) == 0 else {
      throw lost(connectionMessage)
    }
    return (commands, preparing)
  }

  /// Calls `body` with the number of `parameters` and their values as C strings (`nil` for
  /// NULL), laid out in one buffer: each value's UTF-8 bytes copied whole, then its NUL.
  static func withParameters(
    _ parameters: [String?],
    _ body: (Int32, UnsafePointer<UnsafePointer<CChar>?>?) -> Int32
  ) -> Int32 {
    var size = 0
    for parameter in parameters { size += (parameter?.utf8.count ?? -1) + 1 }
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: max(size, 1)) { bytes in
      withUnsafeTemporaryAllocation(of: UnsafePointer<CChar>?.self, capacity: parameters.count) {
        values in
        var end = 0
        for (index, parameter) in parameters.enumerated() {
          guard var parameter else {
            values.initializeElement(at: index, to: nil)
            continue
          }
          let start = bytes.baseAddress! + end
          parameter.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { text in
              if let base = text.baseAddress { start.initialize(from: base, count: text.count) }
              end += text.count
            }
          }
          bytes.initializeElement(at: end, to: 0)
          end += 1
          values.initializeElement(at: index, to: UnsafePointer(start))
        }
        return body(Int32(parameters.count), UnsafePointer(values.baseAddress))
      }
    }
  }

  /// Whether `sql` may change the schema (a table's columns or their types), which a prepared
  /// statement's parameter types were read from. The store writes its DDL in upper case.
  static func changesSchema(_ sql: String) -> Bool {
    sql.contains("CREATE ") || sql.contains("ALTER ") || sql.contains("DROP ")
      || sql.contains("DO $$")
  }

  /// Empties ``prepared`` after a statement that may have changed the schema (`changed`), and
  /// again when the transaction that did ends, by commit or rollback.
  func noteSchemaChange(_ changed: Bool) {
    if changed {
      forgetPrepared()
      schemaChangedInTransaction = isInTransaction
    } else if schemaChangedInTransaction, !isInTransaction {
      forgetPrepared()
      schemaChangedInTransaction = false
    }
  }

  /// Drops every prepared statement: the server's (where the connection can still run a
  /// statement) and the names kept here.
  func forgetPrepared() {
    guard !prepared.isEmpty else { return }
    prepared = [:]
    // 3: a failed transaction, which runs nothing until its rollback; the names stay unused.
    guard let handle, library.status(handle) == 0, library.transactionStatus(handle) != 3
    else { return }
    if let result = library.exec(handle, "DEALLOCATE ALL") { library.clear(result) }
  }
}
