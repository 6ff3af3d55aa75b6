extension SQLiteEngine {
  /// W8: `UPDATE … SET budget = budget + 1 WHERE startDate < 2021-01-01` on every trip table,
  /// in one transaction.
  func updatePlan(_ database: SQLiteDatabase) throws -> JobPlan {
    let updates = try layout.tripTables.map { table, _ in
      try database.prepare("UPDATE \(table) SET budget = budget + 1 WHERE startDate < ?1")
    }
    return .timed {
      try database.execute("BEGIN")
      var updated = 0
      for update in updates {
        update.bind(1, WorkloadCalendar.updateCutoff)
        try update.run()
        updated += database.changes
      }
      try database.execute("COMMIT")
      return Tally(count: updated)
    }
  }
}
