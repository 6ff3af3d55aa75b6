import BenchmarkKit
import ModelGraph

extension ModelGraphBenchmarkEngine {
  /// W9: `delete(model: Trip.self, where:)` for trips starting in 2029 or later, then save; the
  /// accommodations and activities go by their cascade rule.
  ///
  /// Objects deleted and left are counted with `fetchCount` outside the clock.
  func cascadeDeletePlan(_ context: ModelContext) -> JobPlan {
    guard capabilities.cascadesDeletes else {
      return .skipped(
        reason: "deleteRule: .cascade is not applied yet (probe: deleting a trip left its "
          + "accommodation), so the answer would differ from the peers'")
    }
    let cutoff = Date(seconds: WorkloadCalendar.deleteCutoff)
    var before = 0
    return .timed(
      TimedJob(
        setUp: { before = try Self.objectCount(context) },
        body: {
          try context.delete(model: Trip.self, where: #Predicate { $0.startDate >= cutoff })
          try context.save()
          return Tally(count: 0)
        },
        verify: { _ in
          let left = try Self.objectCount(context)
          return Tally(count: before - left, check: String(left))
        }))
  }

  /// Trips, accommodations and activities, by `fetchCount`.
  static func objectCount(_ context: ModelContext) throws -> Int {
    try context.fetchCount(FetchDescriptor<Trip>())
      + context.fetchCount(FetchDescriptor<Accommodation>())
      + context.fetchCount(FetchDescriptor<Activity>())
  }
}
