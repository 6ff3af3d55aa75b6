import CSQLite

/// A SQLite connection through the C API.
///
/// Not thread-safe; the benchmark uses one connection from one thread.
package final class SQLiteDatabase {
  /// The C handle.
  package let handle: OpaquePointer

  /// Opens `path` (`":memory:"` for a database in memory), creating it if needed.
  ///
  /// - Throws: ``BenchmarkError`` with SQLite's message.
  package init(path: String = ":memory:") throws {
    var handle: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
    let code = sqlite3_open_v2(path, &handle, flags, nil)
    guard code == SQLITE_OK, let handle else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close_v2(handle)
      throw BenchmarkError("sqlite3_open_v2(\(path)): \(message)")
    }
    self.handle = handle
  }

  deinit {
    sqlite3_close_v2(handle)
  }

  /// Runs one or more statements that return no rows.
  package func execute(_ sql: String) throws {
    var error: UnsafeMutablePointer<CChar>?
    guard sqlite3_exec(handle, sql, nil, nil, &error) == SQLITE_OK else {
      let message = error.map { String(cString: $0) } ?? "unknown error"
      sqlite3_free(error)
      throw BenchmarkError("sqlite: \(message) in: \(sql)")
    }
  }

  /// Prepares one statement.
  package func prepare(_ sql: String) throws -> SQLiteStatement {
    try SQLiteStatement(database: self, sql: sql)
  }

  /// Rows changed by the last statement.
  package var changes: Int { Int(sqlite3_changes64(handle)) }

  /// The last error message.
  package var lastError: String { String(cString: sqlite3_errmsg(handle)) }

  /// The single integer that `sql` returns.
  package func scalar(_ sql: String) throws -> Int64 {
    let statement = try prepare(sql)
    guard try statement.step() else { throw BenchmarkError("sqlite: no row from \(sql)") }
    return statement.int64(0)
  }

  /// Copies every page of `source` into this database (`sqlite3_backup`).
  package func restore(from source: SQLiteDatabase) throws {
    guard let backup = sqlite3_backup_init(handle, "main", source.handle, "main") else {
      throw BenchmarkError("sqlite3_backup_init: \(lastError)")
    }
    let code = sqlite3_backup_step(backup, -1)
    sqlite3_backup_finish(backup)
    guard code == SQLITE_DONE else {
      throw BenchmarkError("sqlite3_backup_step: \(String(cString: sqlite3_errstr(code)))")
    }
  }
}
