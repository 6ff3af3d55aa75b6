extension SQLiteEngine {
  /// W7: `COUNT(*)` of every trip, of business trips, and of incomplete activities.
  func countPlan(_ database: SQLiteDatabase, _ job: JobID) throws -> JobPlan {
    let sql: String
    switch (job, layout) {
    case (.w7Trip, .classTables):
      sql =
        "SELECT (SELECT COUNT(*) FROM trip) + (SELECT COUNT(*) FROM businesstrip) "
        + "+ (SELECT COUNT(*) FROM personaltrip)"
    case (.w7Trip, .hierarchy): sql = "SELECT COUNT(*) FROM trip"
    case (.w7Business, .classTables): sql = "SELECT COUNT(*) FROM businesstrip"
    case (.w7Business, .hierarchy): sql = "SELECT COUNT(*) FROM trip WHERE kind = 1"
    default: sql = "SELECT COUNT(*) FROM activity WHERE isComplete = 0"
    }
    let query = try database.prepare(sql)
    return .timed {
      defer { query.reset() }
      _ = try query.step()
      return Tally(count: Int(query.int64(0)))
    }
  }
}
