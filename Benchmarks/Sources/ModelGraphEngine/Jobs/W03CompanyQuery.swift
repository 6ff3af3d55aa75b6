import BenchmarkKit
import ModelGraph

extension ModelGraphBenchmarkEngine {
  /// W3: `FetchDescriptor<BusinessTrip>` with `company == k`, per company.
  func companyQueryPlan(_ context: ModelContext, _ parameters: QueryParameters) -> JobPlan {
    let companies = parameters.companies
    return .timed {
      var checksum = StartDateChecksum()
      for company in companies {
        try RunDeadline.check()
        let descriptor = FetchDescriptor<BusinessTrip>(
          predicate: #Predicate { $0.company == company })
        for trip in try context.fetch(descriptor) {
          checksum.add(Int64(trip.startDate.timeIntervalSince1970))
        }
      }
      return checksum.tally
    }
  }
}
