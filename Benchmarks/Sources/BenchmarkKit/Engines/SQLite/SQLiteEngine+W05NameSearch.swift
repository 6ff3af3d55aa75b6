extension SQLiteEngine {
  /// W5: `name LIKE '%99%'` (case-insensitive for ASCII), ordered by name, limit 100, rows
  /// materialized. A full scan in every layout.
  func nameSearchPlan(_ database: SQLiteDatabase) throws -> JobPlan {
    let query = try database.prepare(
      layout.deepTripQuery(where: "name LIKE '%99%'", "ORDER BY name LIMIT 100"))
    return .timed {
      defer { query.reset() }
      var checksum = StartDateChecksum()
      while try query.step() {
        checksum.add(TripRowReader.trip(query).startSeconds)
      }
      return checksum.tally
    }
  }
}
