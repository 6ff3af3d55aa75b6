extension ArraysEngine {
  /// W3: every business trip of a company, per company.
  ///
  /// - Complexity: O(N) per company.
  func companyQueryPlan(_ parameters: QueryParameters) -> JobPlan {
    let companies = parameters.companies
    return .timed { [unowned self] in
      var checksum = StartDateChecksum()
      for company in companies {
        try RunDeadline.check()
        let matches = trips.filter { ($0 as? PlainBusinessTrip)?.company == company }
        for trip in matches { checksum.add(trip.startSeconds) }
      }
      return checksum.tally
    }
  }
}
