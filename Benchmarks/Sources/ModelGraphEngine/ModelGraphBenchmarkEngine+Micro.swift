package import BenchmarkKit
@_spi(Benchmarks) import ModelGraph

extension ModelGraphBenchmarkEngine {
  /// Attribute reads and writes through fetched objects, identity-map lookups, and
  /// materializing objects from rows.
  package func microPlans(scratch: String) -> [(MicroJobID, MicroPlan)] {
    guard let context else { return [(.read, .skipped(reason: "nothing loaded"))] }
    let handles = HandleCache(context)
    return [
      (.read, readPlan(handles)),
      (.write, writePlan(handles)),
      (.lookup, lookupPlan(handles)),
      (.plan, planPlan(ModelContext(handles.context.container))),
      (.materialize, materializePlan(handles)),
    ]
  }

  /// `trip.budget` read through every fetched trip.
  private func readPlan(_ handles: HandleCache) -> MicroPlan {
    .timedJob(
      operations: handles.count,
      TimedJob(
        setUp: { try handles.fill() },
        body: {
          var cents: Int64 = 0
          for trip in handles.trips { cents &+= Int64((trip.budget * 100).rounded()) }
          return Tally(count: handles.trips.count, check: String(cents))
        }))
  }

  /// `trip.budget = value` through every fetched trip (unsaved changes).
  private func writePlan(_ handles: HandleCache) -> MicroPlan {
    .timedJob(
      operations: handles.count,
      TimedJob(
        setUp: { try handles.fill() },
        body: {
          var value = 0.0
          for trip in handles.trips {
            trip.budget = value
            value += 1
          }
          return Tally(count: handles.trips.count)
        }))
  }

  /// `context.model(for:)` of every trip's identifier, with the objects registered.
  private func lookupPlan(_ handles: HandleCache) -> MicroPlan {
    .timedJob(
      operations: handles.count,
      TimedJob(
        setUp: { try handles.fill() },
        body: {
          var checksum = StartDateChecksum()
          for identifier in handles.identifiers {
            if let trip = handles.context.model(for: identifier) as? Trip {
              checksum.add(Int64(trip.startDate.timeIntervalSince1970))
            }
          }
          return checksum.tally
        }))
  }

  /// Builds the W2 descriptor (`#Predicate`, sort, limit) and has the context translate and plan
  /// it as a fetch does before reading a row (not `explain`, which also renders the plan as
  /// text, which a fetch never does), 1 000 times. The context is a new one without unsaved
  /// changes, as W2's is (M1.write leaves the shared one with 100k). `MODELGRAPH_M3_OPERATIONS`
  /// sets the repetitions per run (for a profile).
  private func planPlan(_ context: ModelContext) -> MicroPlan {
    let lo = Date(seconds: WorkloadCalendar.start)
    let hi = Date(seconds: WorkloadCalendar.start + 30 * WorkloadCalendar.day)
    let operations =
      ProcessInfo.processInfo.environment["MODELGRAPH_M3_OPERATIONS"].flatMap { Int($0) } ?? 1_000
    return .timed(operations: operations) {
      for _ in 0..<operations {
        var descriptor = FetchDescriptor<Trip>(
          predicate: #Predicate { $0.startDate >= lo && $0.startDate < hi },
          sortBy: [SortDescriptor(\.startDate)])
        descriptor.fetchLimit = 50
        _ = try context._plan(descriptor)
      }
      return Tally(count: operations)
    }
  }

  /// Fetches every trip into fresh handles and reads each start date: each run uses a new
  /// context, so no trip is registered before (M1.write leaves the shared context holding every
  /// trip it changed, which would turn this into identity-map lookups).
  private func materializePlan(_ handles: HandleCache) -> MicroPlan {
    var fresh = ModelContext(handles.context.container)
    return .timedJob(
      operations: handles.count,
      TimedJob(
        setUp: {
          handles.empty()
          fresh = ModelContext(handles.context.container)
        },
        body: {
          var checksum = StartDateChecksum()
          for trip in try fresh.fetch(FetchDescriptor<Trip>()) {
            checksum.add(Int64(trip.startDate.timeIntervalSince1970))
          }
          return checksum.tally
        }))
  }
}

/// Fetched trips kept alive between micro runs (registered in the identity map), or dropped.
private final class HandleCache {
  let context: ModelContext
  let count: Int
  var trips: [Trip] = []
  var identifiers: [PersistentIdentifier] = []

  init(_ context: ModelContext) {
    self.context = context
    count = (try? context.fetchCount(FetchDescriptor<Trip>())) ?? 0
  }

  func fill() throws {
    guard trips.isEmpty else { return }
    trips = try context.fetch(FetchDescriptor<Trip>())
    identifiers = trips.map(\.persistentModelID)
  }

  func empty() {
    trips = []
    identifiers = []
  }
}
