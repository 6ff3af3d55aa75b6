// Measures how long a save in one container takes to become visible in another container on
// the same PostgreSQL database (two app servers): from the moment `save()` returns in the
// writer to the moment the reader's store publishes the change (its change subscription
// fires). Usage: MODELGRAPH_POSTGRESQL_URL=... postgresql-delay-probe [saves]
import Dispatch
import Foundation
import ModelGraph

final class Counter: PersistentModel {
  @Attribute var value: Int
}

guard let base = ProcessInfo.processInfo.environment["MODELGRAPH_POSTGRESQL_URL"] else {
  print("set MODELGRAPH_POSTGRESQL_URL (scripts/postgresql-dev.sh start)")
  exit(2)
}
let saves = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 200
let schema = "probe_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
let psql = Process()
psql.executableURL = URL(fileURLWithPath: "/usr/bin/env")
psql.arguments = ["psql", base, "-qc", "CREATE SCHEMA \(schema)"]
try psql.run()
psql.waitUntilExit()
let url = URL(
  string: base + (base.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)")!

let writer = try ModelContainer(for: [Counter.self], configurations: [ModelConfiguration(url: url)])
let reader = try ModelContainer(for: [Counter.self], configurations: [ModelConfiguration(url: url)])
let context = ModelContext(writer)
let counter = Counter()
counter.value = 0
context.insert(counter)
try context.save()

let arrived = DispatchSemaphore(value: 0)
let subscription = reader.store.subscribe { _ in arrived.signal() }
// The insert may or may not have reached the reader yet: wait for it, then drain.
_ = arrived.wait(timeout: .now() + 5)
while arrived.wait(timeout: .now()) == .success {}

var delays: [Double] = []
for step in 1...saves {
  counter.value = step
  try context.save()
  let saved = DispatchTime.now().uptimeNanoseconds
  guard arrived.wait(timeout: .now() + 5) == .success else {
    print("save \(step) did not reach the reader within 5 s")
    exit(1)
  }
  delays.append(Double(DispatchTime.now().uptimeNanoseconds - saved) / 1e6)
}
reader.store.unsubscribe(subscription)
let sorted = delays.sorted()
func quantile(_ q: Double, _ values: [Double]) -> Double {
  values[min(values.count - 1, Int(Double(values.count) * q))]
}
print(
  "save-to-visible saves=\(saves) median-ms=\(String(format: "%.2f", quantile(0.5, sorted))) "
    + "p90-ms=\(String(format: "%.2f", quantile(0.9, sorted))) p99-ms=\(String(format: "%.2f", quantile(0.99, sorted))) "
    + "max-ms=\(String(format: "%.2f", sorted.last!))")
