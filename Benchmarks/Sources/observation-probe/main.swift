// observation-probe: what observation costs a save, outside the workload harness.
//
//   observation-probe [trips]
//
// On an in-memory container holding `trips` trips (default 100 000):
// 1. W12-shaped saves (one trip's budget changed, then save) with 0, 10 and 1 000 live queries
//    registered on an unrelated class: the median save, over 5 runs of 2 000 saves;
// 2. the delay from `save()` returning to a `changes()` subscriber holding the change: the
//    median and 99th percentile over 2 000 saves (0 when the subscriber had it first);
// 3. the save with the store's history off and nobody subscribed (no change is built but
//    the context's own), for comparison with 1's 0 line;
// 4. an attribute read through every trip, outside withObservationTracking, with the
//    context's observesReads on and off (interleaved runs, medians of 7);
// 5. a save of one changed date followed by a fetch through the date's ordered index (sorted,
//    limit 20), on `trips` events: the median of 1 000 (each save makes a version whose index
//    the fetch needs).
import Foundation
import ModelGraph
import Synchronization

final class ProbeTrip: PersistentModel {
  @Attribute var name: String
  @Attribute var budget: Double

  convenience init(name: String, budget: Double) {
    self.init()
    self.name = name
    self.budget = budget
  }
}

final class ProbeNote: PersistentModel {
  @Attribute var text: String
}

final class ProbeEvent: PersistentModel, IndexedModel {
  @Attribute var at: Date

  static var indexes: [ModelIndex] { [.ordered(\ProbeEvent.at)] }
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

func median(_ values: [UInt64]) -> UInt64 { values.sorted()[values.count / 2] }

func percentile99(_ values: [UInt64]) -> UInt64 { values.sorted()[values.count * 99 / 100] }

let tripCount = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 100_000 : 100_000
let schema = Schema([ProbeTrip.self, ProbeNote.self, ProbeEvent.self])
let container = try ModelContainer(
  for: schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
let loader = ModelContext(container)
for index in 0..<tripCount { loader.insert(ProbeTrip(name: "trip \(index)", budget: 0)) }
try loader.save()
let trips = try loader.fetch(FetchDescriptor<ProbeTrip>())
print("# observation-probe trips=\(tripCount)")

/// The median nanoseconds of one save changing one trip's budget, over 5 runs of `saves`.
func saveMedian(_ context: ModelContext, _ trips: [ProbeTrip], saves: Int = 2_000) throws -> UInt64
{
  var medians: [UInt64] = []
  var next = 0
  for _ in 0..<5 {
    var times: [UInt64] = []
    for _ in 0..<saves {
      let trip = trips[(next &* 7_919) % trips.count]
      next += 1
      let start = now()
      trip.budget += 1
      try context.save()
      times.append(now() - start)
    }
    medians.append(median(times))
  }
  return median(medians)
}

var streams: [AsyncThrowingStream<LiveQueryUpdate, any Error>] = []
let unrelated = FetchDescriptor<ProbeNote>(predicate: #Predicate { $0.text == "x" })
for target in [0, 10, 1_000] {
  while streams.count < target { streams.append(try container.observe(unrelated)) }
  let nanoseconds = try saveMedian(loader, trips)
  print("save live-queries=\(target) median-ns=\(nanoseconds)")
}
streams = []

// 2. Delay from save() returning to the subscriber holding the change.
let received = Mutex<[UInt64: UInt64]>([:])
let subscriber = Task.detached {
  for await change in container.changes(bufferingNewest: nil) {
    let time = now()
    received.withLock { $0[change.version] = time }
  }
}
try await Task.sleep(for: .milliseconds(100))
var returned: [UInt64: UInt64] = [:]
for index in 0..<2_000 {
  trips[index % trips.count].budget += 1
  try loader.save()
  returned[container.store.version.number] = now()
  if index % 100 == 0 { try await Task.sleep(for: .milliseconds(1)) }
}
try await Task.sleep(for: .milliseconds(500))
subscriber.cancel()
let delays = received.withLock { seen in
  returned.compactMap { version, time in seen[version].map { $0 > time ? $0 - time : 0 } }
}
print(
  "delay save-to-subscriber saves=\(delays.count) median-ns=\(median(delays)) "
    + "p99-ns=\(percentile99(delays)) first=\(delays.filter { $0 == 0 }.count)")

// 3. History off, nobody subscribed.
container.store.history.retention = .init(transactions: 0)
print("save history=off live-queries=0 median-ns=\(try saveMedian(loader, trips))")

// 4. Untracked reads with observesReads on and off.
var readTimes: [Bool: [UInt64]] = [true: [], false: []]
var checksum = 0.0
for _ in 0..<7 {
  for observes in [true, false] {
    loader.observesReads = observes
    let start = now()
    for trip in trips { checksum += trip.budget }
    readTimes[observes]!.append((now() - start) / UInt64(trips.count))
  }
}
loader.observesReads = true
print(
  "read observesReads=on median-ns=\(median(readTimes[true]!)) "
    + "observesReads=off median-ns=\(median(readTimes[false]!)) check=\(checksum > 0)")

// 5. A save, then a fetch through an ordered index.
for index in 0..<tripCount {
  let event = ProbeEvent()
  event.at = Date(timeIntervalSince1970: Double(index))
  loader.insert(event)
}
try loader.save()
let events = try loader.fetch(FetchDescriptor<ProbeEvent>())
var latest = FetchDescriptor<ProbeEvent>(sortBy: [SortDescriptor(\.at, order: .reverse)])
latest.fetchLimit = 20
var rounds: [UInt64] = []
var found = 0
for round in 0..<1_000 {
  let start = now()
  events[(round &* 7_919) % events.count].at = Date(timeIntervalSince1970: Double(-round))
  try loader.save()
  found += try loader.fetch(latest).count
  rounds.append(now() - start)
}
print("save-then-ordered-fetch events=\(tripCount) median-ns=\(median(rounds)) found=\(found)")
