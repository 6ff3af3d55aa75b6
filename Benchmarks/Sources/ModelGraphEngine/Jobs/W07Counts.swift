import BenchmarkKit
import ModelGraph

extension ModelGraphBenchmarkEngine {
  /// W7: `fetchCount` of every trip (deep), of business trips, of incomplete activities.
  func countPlan(_ context: ModelContext, _ job: JobID) -> JobPlan {
    switch job {
    case .w7Trip:
      let descriptor = FetchDescriptor<Trip>()
      return .timed { Tally(count: try context.fetchCount(descriptor)) }
    case .w7Business:
      let descriptor = FetchDescriptor<BusinessTrip>()
      return .timed { Tally(count: try context.fetchCount(descriptor)) }
    default:
      let descriptor = FetchDescriptor<Activity>(predicate: #Predicate { !$0.isComplete })
      return .timed { Tally(count: try context.fetchCount(descriptor)) }
    }
  }
}
