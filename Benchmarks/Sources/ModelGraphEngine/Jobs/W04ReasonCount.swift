import BenchmarkKit
import ModelGraph

extension ModelGraphBenchmarkEngine {
  /// W4: `fetchCount` of `Trip` with a type test: personal trips for a vacation.
  func reasonCountPlan(_ context: ModelContext) -> JobPlan {
    let vacation = Reason.vacation
    let descriptor = FetchDescriptor<Trip>(
      predicate: #Predicate {
        if let trip = $0 as? PersonalTrip { trip.reason == vacation } else { false }
      })
    return .timed { Tally(count: try context.fetchCount(descriptor)) }
  }
}
