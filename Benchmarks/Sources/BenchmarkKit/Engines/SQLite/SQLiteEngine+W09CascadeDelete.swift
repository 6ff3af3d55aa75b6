extension SQLiteEngine {
  /// W9: deletes every trip starting in 2029 or later with its accommodations and activities,
  /// in one transaction: children first (`trip IN (…)` through their trip index), then trips.
  func cascadeDeletePlan(_ database: SQLiteDatabase) throws -> JobPlan {
    let doomed = layout.deepTripQuery(where: "startDate >= ?1", "") { _ in "id" }
    var deletes = [
      try database.prepare("DELETE FROM accommodation WHERE trip IN (\(doomed))"),
      try database.prepare("DELETE FROM activity WHERE trip IN (\(doomed))"),
    ]
    for (table, _) in layout.tripTables {
      deletes.append(try database.prepare("DELETE FROM \(table) WHERE startDate >= ?1"))
    }
    let layout = self.layout
    return .timed(
      TimedJob(
        body: {
          try database.execute("BEGIN")
          var deleted = 0
          for delete in deletes {
            delete.bind(1, WorkloadCalendar.deleteCutoff)
            try delete.run()
            deleted += database.changes
          }
          try database.execute("COMMIT")
          return Tally(count: deleted)
        },
        verify: { deleted in
          let left = try Self.objectCount(database, layout)
          return Tally(count: deleted.count, check: String(left))
        }))
  }
}
