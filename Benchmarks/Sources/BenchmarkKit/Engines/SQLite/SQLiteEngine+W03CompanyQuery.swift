extension SQLiteEngine {
  /// W3: business trips of one company through the company index, rows materialized.
  func companyQueryPlan(_ database: SQLiteDatabase, _ parameters: QueryParameters) throws
    -> JobPlan
  {
    let sql =
      switch layout {
      case .classTables:
        "SELECT \(layout.tripColumns(.business)) FROM businesstrip WHERE company = ?1"
      case .hierarchy:
        "SELECT \(layout.tripColumns(.business)) FROM trip WHERE company = ?1 AND kind = 1"
      }
    let query = try database.prepare(sql)
    let companies = parameters.companies
    return .timed {
      var checksum = StartDateChecksum()
      for company in companies {
        try RunDeadline.check()
        query.bind(1, company)
        while try query.step() {
          checksum.add(TripRowReader.trip(query).startSeconds)
        }
        query.reset()
      }
      return checksum.tally
    }
  }
}
