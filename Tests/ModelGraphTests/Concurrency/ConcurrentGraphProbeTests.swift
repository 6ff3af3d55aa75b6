import Foundation
import ModelGraph
import Synchronization
import Testing

/// The probe of the concurrency issue: writers on their own threads and contexts insert,
/// update, delete (cascading) and move stops between trips; readers check the graph and a
/// deep indexed fetch meanwhile.
@Suite("Concurrency: writers editing relationships keep the graph whole")
struct ConcurrentGraphProbeTests {
  struct Outcome: Sendable {
    var committed = 0
    var refused = 0
    var insertedTrips = 0
    var deletedTrips = 0
    var problems: [String] = []
  }

  /// One writer's round: insert a trip with two stops, update a trip, delete one of the
  /// writer's own trips (its stops cascade), move a stop to another trip, save. A conflict
  /// rolls the round back.
  static func writerRound(
    _ context: ModelContext, writer: Int, round: Int, random: inout SplitMix64,
    outcome: inout Outcome
  ) throws {
    let trips = try context.fetch(FetchDescriptor<CCTrip>())
    let added = CCTrip(name: "w\(writer)r\(round)", owner: writer)
    context.insert(added)
    added.stops = [CCStop(name: "w\(writer)r\(round)a"), CCStop(name: "w\(writer)r\(round)b")]
    if let updated = trips.randomElement(using: &random) {
      updated.visits += 1
    }
    var deleted: CCTrip?
    let mine = trips.filter { $0.owner == writer }
    if trips.count > 20, let victim = mine.randomElement(using: &random) {
      context.delete(victim)
      deleted = victim
    }
    let stops = try context.fetch(FetchDescriptor<CCStop>())
    let targets = trips.filter { $0 !== deleted }
    if let stop = stops.randomElement(using: &random),
      let target = targets.randomElement(using: &random), stop.trip !== target
    {
      stop.trip = target
    }
    do {
      try context.save()
      outcome.committed += 1
      outcome.insertedTrips += 1
      if deleted != nil { outcome.deletedTrips += 1 }
    } catch let error as ModelError where error.code == .conflict {
      context.rollback()
      outcome.refused += 1
    }
  }

  /// Runs `writers` writer threads and `readers` reader threads; each writer checks the
  /// committed graph after every round, readers check it until the writers are done.
  static func probe(seed: UInt64, writers: Int, readers: Int, rounds: Int) throws -> (
    outcomes: [Outcome], container: ModelContainer, initialTrips: Int
  ) {
    let container = try makeInMemoryContainer(CCTrip.self, CCStop.self)
    let setup = ModelContext(container)
    let initialTrips = 30
    for index in 0..<initialTrips {
      let trip = CCTrip(name: "t\(index)", owner: index % writers)
      setup.insert(trip)
      trip.stops = (0..<3).map { CCStop(name: "t\(index)s\($0)") }
    }
    try setup.save()

    let outcomes = Mutex([Outcome](repeating: Outcome(), count: writers + readers))
    let writersLeft = Atomic(writers)
    let group = DispatchGroup()
    for index in 0..<(writers + readers) {
      group.enter()
      let thread = Thread {
        defer { group.leave() }
        var outcome = Outcome()
        do {
          if index < writers {
            defer { writersLeft.subtract(1, ordering: .releasing) }
            var random = SplitMix64(seed: seed &+ UInt64(index) &* 7919)
            let context = ModelContext(container)
            for round in 0..<rounds {
              try writerRound(
                context, writer: index, round: round, random: &random, outcome: &outcome)
              let problems = graphViolations(container)
              if !problems.isEmpty {
                outcome.problems += problems.map { "writer \(index) round \(round): \($0)" }
                break
              }
            }
          } else {
            while writersLeft.load(ordering: .acquiring) > 0 && outcome.problems.isEmpty {
              outcome.problems += graphViolations(container).map { "reader: \($0)" }
              outcome.problems += try indexedFetchViolations(container).map { "reader: \($0)" }
              outcome.committed += 1
            }
          }
        } catch {
          outcome.problems.append("thread \(index): \(error)")
        }
        outcomes.withLock { $0[index] = outcome }
      }
      thread.stackSize = 4 << 20
      thread.start()
    }
    group.wait()
    return (outcomes.withLock { $0 }, container, initialTrips)
  }

  /// Extra seeds for a long run: `MODELGRAPH_PROBE_SEEDS=200 swift test --filter Probe`.
  static let extraSeeds = ProcessInfo.processInfo.environment["MODELGRAPH_PROBE_SEEDS"]
    .flatMap { UInt64($0) }

  @Test(
    "4 writers moving, deleting and inserting, 2 readers: no orphan, no stop under two trips",
    .disabled(if: testsRunOnFetchedResidency, readsNewestWithUnsavedChanges),
    arguments: [1 as UInt64, 2, 3])
  func probe(seed: UInt64) throws {
    try checkProbe(seed: seed)
  }

  @Test(
    "the probe over MODELGRAPH_PROBE_SEEDS more seeds", .enabled(if: extraSeeds != nil))
  func probeManySeeds() throws {
    for seed in 4..<(4 + (Self.extraSeeds ?? 0)) { try checkProbe(seed: seed) }
  }

  func checkProbe(seed: UInt64) throws {
    let rounds = 120
    let (outcomes, container, initialTrips) = try Self.probe(
      seed: seed, writers: 4, readers: 2, rounds: rounds)
    let problems = outcomes.flatMap(\.problems)
    #expect(problems.isEmpty, "seed \(seed): \(problems.prefix(10).joined(separator: "\n"))")
    #expect(graphViolations(container).isEmpty)

    let writers = outcomes.prefix(4)
    #expect(writers.allSatisfy { $0.committed + $0.refused == rounds })
    #expect(writers.map(\.committed).reduce(0, +) > 0)
    let inserted = writers.map(\.insertedTrips).reduce(0, +)
    let deleted = writers.map(\.deletedTrips).reduce(0, +)
    let trips = try ModelContext(container).fetchCount(FetchDescriptor<CCTrip>())
    #expect(trips == initialTrips + inserted - deleted)
  }
}
