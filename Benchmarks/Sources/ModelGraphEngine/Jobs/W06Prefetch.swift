import BenchmarkKit
import ModelGraph

extension ModelGraphBenchmarkEngine {
  /// W6: the first 1 000 trips by start date with `relationshipKeyPathsForPrefetching` set to
  /// both relationships; sums nightly rates in cents and counts incomplete activities.
  func prefetchPlan(_ context: ModelContext) -> JobPlan {
    var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)])
    descriptor.fetchLimit = 1_000
    descriptor.relationshipKeyPathsForPrefetching = [\.accommodations, \.activities]
    return .timed {
      var prefetch = PrefetchTally()
      for trip in try context.fetch(descriptor) {
        prefetch.addTrip()
        for stay in trip.accommodations { prefetch.add(nightlyRate: stay.nightlyRate) }
        for activity in trip.activities { prefetch.add(isComplete: activity.isComplete) }
      }
      return prefetch.tally
    }
  }
}
