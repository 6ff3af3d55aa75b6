import BenchmarkKit
import ModelGraph

extension ModelGraphBenchmarkEngine {
  /// W8: fetches every trip that starts before 2021, `budget += 1` on each, saves.
  func updatePlan(_ context: ModelContext) -> JobPlan {
    let cutoff = Date(seconds: WorkloadCalendar.updateCutoff)
    let descriptor = FetchDescriptor<Trip>(predicate: #Predicate { $0.startDate < cutoff })
    return .timed {
      let trips = try context.fetch(descriptor)
      for trip in trips { trip.budget += 1 }
      try context.save()
      return Tally(count: trips.count)
    }
  }
}
