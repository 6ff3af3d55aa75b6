import CSQLite
package import Foundation

/// A prepared statement: bind, step, read columns, reset.
package final class SQLiteStatement {
  private let database: SQLiteDatabase
  private let handle: OpaquePointer

  /// Prepares `sql` on `database`.
  init(database: SQLiteDatabase, sql: String) throws {
    var handle: OpaquePointer?
    guard sqlite3_prepare_v2(database.handle, sql, -1, &handle, nil) == SQLITE_OK, let handle
    else {
      throw BenchmarkError("sqlite3_prepare_v2: \(database.lastError) in: \(sql)")
    }
    self.database = database
    self.handle = handle
  }

  deinit {
    sqlite3_finalize(handle)
  }

  /// Clears the bindings' effects and rewinds, ready to bind and step again.
  @inline(__always)
  package func reset() {
    sqlite3_reset(handle)
  }

  /// Binds an integer to the 1-based parameter `index`.
  @inline(__always)
  package func bind(_ index: Int32, _ value: Int64) {
    sqlite3_bind_int64(handle, index, value)
  }

  /// Binds a real.
  @inline(__always)
  package func bind(_ index: Int32, _ value: Double) {
    sqlite3_bind_double(handle, index, value)
  }

  /// Binds text (copied by SQLite), or NULL.
  @inline(__always)
  package func bind(_ index: Int32, _ value: String?) {
    guard var value else {
      sqlite3_bind_null(handle, index)
      return
    }
    value.withUTF8 { utf8 in
      _ = utf8.withMemoryRebound(to: CChar.self) {
        sqlite3_bind_text(handle, index, $0.baseAddress, Int32($0.count), transient)
      }
    }
  }

  /// Binds a UUID as a 16-byte blob.
  @inline(__always)
  package func bind(_ index: Int32, _ value: UUID) {
    withUnsafeBytes(of: value.uuid) {
      _ = sqlite3_bind_blob(handle, index, $0.baseAddress, 16, transient)
    }
  }

  /// Binds NULL.
  @inline(__always)
  package func bindNull(_ index: Int32) {
    sqlite3_bind_null(handle, index)
  }

  /// Steps once: `true` with a row ready, `false` when done.
  ///
  /// - Throws: ``BenchmarkError`` with SQLite's message on any other result.
  @inline(__always)
  @discardableResult
  package func step() throws -> Bool {
    switch sqlite3_step(handle) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default: throw BenchmarkError("sqlite3_step: \(database.lastError)")
    }
  }

  /// Steps a statement that returns no rows, then resets it.
  @inline(__always)
  package func run() throws {
    defer { sqlite3_reset(handle) }
    try step()
  }

  /// The integer in column `index` (0-based).
  @inline(__always)
  package func int64(_ index: Int32) -> Int64 {
    sqlite3_column_int64(handle, index)
  }

  /// The real in column `index`.
  @inline(__always)
  package func double(_ index: Int32) -> Double {
    sqlite3_column_double(handle, index)
  }

  /// Whether column `index` is NULL.
  @inline(__always)
  package func isNull(_ index: Int32) -> Bool {
    sqlite3_column_type(handle, index) == SQLITE_NULL
  }

  /// The text in column `index` (empty for NULL).
  @inline(__always)
  package func string(_ index: Int32) -> String {
    guard let text = sqlite3_column_text(handle, index) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, index))
    return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
  }

  /// The text in column `index`, or `nil` for NULL.
  @inline(__always)
  package func optionalString(_ index: Int32) -> String? {
    isNull(index) ? nil : string(index)
  }

  /// The 16-byte blob in column `index` as a UUID.
  @inline(__always)
  package func uuid(_ index: Int32) -> UUID {
    guard let blob = sqlite3_column_blob(handle, index), sqlite3_column_bytes(handle, index) == 16
    else { return UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
    var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &bytes) {
      $0.copyMemory(from: UnsafeRawBufferPointer(start: blob, count: 16))
    }
    return UUID(uuid: bytes)
  }
}

/// `SQLITE_TRANSIENT`: SQLite copies the bound bytes before the call returns.
private var transient: sqlite3_destructor_type {
  unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
