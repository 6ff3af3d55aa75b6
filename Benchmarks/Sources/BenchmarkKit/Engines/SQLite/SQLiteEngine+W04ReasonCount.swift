extension SQLiteEngine {
  /// W4: personal trips for a vacation, counted. Asked of the base class, the type test leaves
  /// only the personal-trip rows: the `personaltrip` table, or `kind = 2`.
  func reasonCountPlan(_ database: SQLiteDatabase) throws -> JobPlan {
    let sql =
      switch layout {
      case .classTables: "SELECT COUNT(*) FROM personaltrip WHERE reason = 0"
      case .hierarchy: "SELECT COUNT(*) FROM trip WHERE kind = 2 AND reason = 0"
      }
    let query = try database.prepare(sql)
    return .timed {
      defer { query.reset() }
      _ = try query.step()
      return Tally(count: Int(query.int64(0)))
    }
  }
}
