import CSQLite

extension SQLiteEngine {
  /// Primary-key lookups, preparing the W2 query, and materializing objects from rows.
  package func microPlans(scratch: String) -> [(MicroJobID, MicroPlan)] {
    guard let database else { return [] }
    do {
      return [
        (.read, .skipped(reason: "rows have no attributes to read outside a statement (see M4)")),
        (.write, .skipped(reason: "rows are written with statements (see W8)")),
        (.lookup, try lookupPlan(database)),
        (.plan, planPlan(database)),
        (.materialize, try materializePlan(database)),
      ]
    } catch {
      return [(.lookup, .timed(operations: 1) { throw error })]
    }
  }

  /// Every trip by primary key; the table is known from the kind, as an object ID names its
  /// entity.
  private func lookupPlan(_ database: SQLiteDatabase) throws -> MicroPlan {
    let statements = try layout.tripTables.map { table, _ in
      try database.prepare("SELECT startDate FROM \(table) WHERE id = ?1")
    }
    var keys: [(statement: Int, id: Int64)] = []
    for (table, index) in zip(layout.tripTables, statements.indices) {
      let ids = try database.prepare("SELECT id FROM \(table.table)")
      while try ids.step() { keys.append((index, ids.int64(0))) }
    }
    keys.sort { $0.id < $1.id }
    return .timed(operations: keys.count) {
      var checksum = StartDateChecksum()
      for key in keys {
        let statement = statements[key.statement]
        statement.bind(1, key.id)
        if try statement.step() { checksum.add(statement.int64(0)) }
        statement.reset()
      }
      return checksum.tally
    }
  }

  /// `sqlite3_prepare_v2` and `sqlite3_finalize` of the W2 query: parse and plan.
  private func planPlan(_ database: SQLiteDatabase) -> MicroPlan {
    let sql = layout.deepTripQuery(
      where: "startDate >= ?1 AND startDate < ?2", "ORDER BY startDate LIMIT 50")
    let operations = 1_000
    return .timed(operations: operations) {
      for _ in 0..<operations {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database.handle, sql, -1, &statement, nil) == SQLITE_OK else {
          throw BenchmarkError("sqlite3_prepare_v2: \(database.lastError)")
        }
        sqlite3_finalize(statement)
      }
      return Tally(count: operations)
    }
  }

  /// Every trip row read into a plain object.
  private func materializePlan(_ database: SQLiteDatabase) throws -> MicroPlan {
    let query = try database.prepare(layout.deepTripQuery(where: "1", ""))
    var trips: Int64 = 0
    for (table, _) in layout.tripTables {
      trips += try database.scalar("SELECT COUNT(*) FROM \(table)")
    }
    return .timed(operations: max(Int(trips), 1)) {
      defer { query.reset() }
      var checksum = StartDateChecksum()
      while try query.step() {
        checksum.add(TripRowReader.trip(query).startSeconds)
      }
      return checksum.tally
    }
  }
}
