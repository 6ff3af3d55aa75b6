import BenchmarkKit
import ModelGraph

extension ModelGraphBenchmarkEngine {
  /// W5: trips whose name contains "99" (`localizedStandardContains`, case- and
  /// diacritic-insensitive, as SwiftData code writes it), sorted by name, `fetchLimit` 100.
  func nameSearchPlan(_ context: ModelContext) -> JobPlan {
    let needle = "99"
    var descriptor = FetchDescriptor<Trip>(
      predicate: #Predicate { $0.name.localizedStandardContains(needle) },
      sortBy: [SortDescriptor(\.name)])
    descriptor.fetchLimit = 100
    return .timed {
      var checksum = StartDateChecksum()
      for trip in try context.fetch(descriptor) {
        checksum.add(Int64(trip.startDate.timeIntervalSince1970))
      }
      return checksum.tally
    }
  }
}
