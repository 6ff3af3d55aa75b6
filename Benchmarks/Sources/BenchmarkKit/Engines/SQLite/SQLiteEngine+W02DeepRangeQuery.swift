extension SQLiteEngine {
  /// W2: a deep start-date range over Trip, ordered, limit 50, rows materialized as objects.
  ///
  /// With one table per class the three arms each read their `startDate` index and SQLite merges
  /// them (compound ORDER BY); with one table per hierarchy one index is read.
  func rangeQueryPlan(_ database: SQLiteDatabase, _ parameters: QueryParameters) throws
    -> JobPlan
  {
    let query = try database.prepare(
      layout.deepTripQuery(
        where: "startDate >= ?1 AND startDate < ?2", "ORDER BY startDate LIMIT 50"))
    let windows = parameters.windows
    return .timed {
      var checksum = StartDateChecksum()
      for window in windows {
        try RunDeadline.check()
        query.bind(1, window.lo)
        query.bind(2, window.hi)
        while try query.step() {
          checksum.add(TripRowReader.trip(query).startSeconds)
        }
        query.reset()
      }
      return checksum.tally
    }
  }
}
