import BenchmarkKit
import ModelGraph

extension ModelGraphBenchmarkEngine {
  /// W2: `FetchDescriptor<Trip>` (deep) with a start-date range predicate, sorted by start date,
  /// `fetchLimit` 50, per window.
  func rangeQueryPlan(_ context: ModelContext, _ parameters: QueryParameters) -> JobPlan {
    let windows = parameters.windows.map { (Date(seconds: $0.lo), Date(seconds: $0.hi)) }
    return .timed {
      var checksum = StartDateChecksum()
      for (lo, hi) in windows {
        try RunDeadline.check()
        var descriptor = FetchDescriptor<Trip>(
          predicate: #Predicate { $0.startDate >= lo && $0.startDate < hi },
          sortBy: [SortDescriptor(\.startDate)])
        descriptor.fetchLimit = 50
        for trip in try context.fetch(descriptor) {
          checksum.add(Int64(trip.startDate.timeIntervalSince1970))
        }
      }
      return checksum.tally
    }
  }
}
