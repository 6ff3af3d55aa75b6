/// SQLite in memory through the C API: prepared statements, one transaction per write job.
///
/// One child process runs one ``SQLiteLayout``; the parent runs both layouts and keeps, per job,
/// the faster line.
package final class SQLiteEngine: BenchmarkEngine {
  /// The layout of this run.
  package let layout: SQLiteLayout
  /// The current database, `nil` before ``load(_:)``.
  package var database: SQLiteDatabase?

  /// An engine with the given layout.
  package init(layout: SQLiteLayout) {
    self.layout = layout
  }

  /// `sqlite`.
  package var name: String { "sqlite" }

  /// The layout and the library version.
  package var notes: [String] {
    let version = (try? SQLiteDatabase().versionString) ?? "?"
    return ["sqlite layout: \(layout.rawValue): \(layout.summary); SQLite \(version)"]
  }

  /// Closes the database.
  package func unload() {
    database = nil
  }

  /// The current database, or an error if nothing is loaded.
  func current() throws -> SQLiteDatabase {
    guard let database else { throw BenchmarkError("sqlite: no database loaded") }
    return database
  }

  /// The work of `job` on the current database.
  package func plan(_ job: JobID, parameters: QueryParameters, scratch: String) -> JobPlan {
    do {
      let database = try current()
      switch job {
      case .w2: return try rangeQueryPlan(database, parameters)
      case .w3: return try companyQueryPlan(database, parameters)
      case .w4: return try reasonCountPlan(database)
      case .w5: return try nameSearchPlan(database)
      case .w6: return try prefetchPlan(database)
      case .w7Trip, .w7Business, .w7Activity: return try countPlan(database, job)
      case .w8: return try updatePlan(database)
      case .w9: return try cascadeDeletePlan(database)
      case .w10Save: return savePlan(database, scratch: scratch)
      case .w10Load: return loadPlan(database, scratch: scratch)
      case .w12: return try smallTransactionsPlan(database, parameters.transactions)
      case .w12Threads2, .w12Threads4:
        return .skipped(
          reason: "writer scaling is measured for ModelGraph only (one SQLite connection to an "
            + "in-memory database; SQLite serializes its writers)")
      case .w13: return durableTransactionsPlan(parameters.durable, scratch: scratch)
      case .w13Threads4:
        return .skipped(
          reason: "writer scaling is measured for ModelGraph only (SQLite serializes its "
            + "writers on the file's lock)")
      case .w1, .w11: return .skipped(reason: "run by the harness")
      }
    } catch {
      return .timed { throw error }
    }
  }

  /// Objects in every table.
  static func objectCount(_ database: SQLiteDatabase, _ layout: SQLiteLayout) throws -> Int {
    var count: Int64 = 0
    for table in layout.tripTables.map(\.table) + ["accommodation", "activity"] {
      count += try database.scalar("SELECT COUNT(*) FROM \(table)")
    }
    return Int(count)
  }
}

extension SQLiteDatabase {
  /// `sqlite_version()`.
  var versionString: String {
    get throws {
      let statement = try prepare("SELECT sqlite_version()")
      _ = try statement.step()
      return statement.string(0)
    }
  }
}
