// Measures what unsaved changes cost a fetch on a PostgreSQL store that keeps only fetched
// objects in memory (`residency=fetched`). Each fetch loads objects not yet in memory, so the
// store publishes a new version and a context with unsaved changes moves onto it: on a trial
// copy of its session, which it then takes over (see `ModelContext.runFetched`). Prints the median
// fetch time for each number of unsaved changes, and its ratio to the clean context's.
// Usage: MODELGRAPH_POSTGRESQL_URL=... postgresql-fetched-probe [objects] [fetches] [changes]
// (one number of unsaved changes, run after the clean context, instead of 1, 100, 1000, 5000).
import Dispatch
import Foundation
import ModelGraph

final class Shelf: PersistentModel {
  @Attribute var label: String
  @Relationship(inverse: \Item.shelf) var items: [Item]
}

final class Item: PersistentModel {
  @Attribute var name: String
  @Attribute var score: Int
  @Relationship var shelf: Shelf?
}

guard let base = ProcessInfo.processInfo.environment["MODELGRAPH_POSTGRESQL_URL"] else {
  print("set MODELGRAPH_POSTGRESQL_URL (scripts/postgresql-dev.sh start)")
  exit(2)
}
let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let objects = arguments.first ?? 20_000
let fetches = arguments.dropFirst().first ?? 40
// A new schema; or, with `PROBE_SCHEMA`, one made beforehand and empty (valgrind cannot start
// `psql` from the probe).
let given = ProcessInfo.processInfo.environment["PROBE_SCHEMA"]
let schema =
  given ?? "probe_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
if given == nil {
  let psql = Process()
  psql.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  psql.arguments = ["psql", base, "-qc", "CREATE SCHEMA \(schema)"]
  try psql.run()
  psql.waitUntilExit()
}
let separator = base.contains("?") ? "&" : "?"
let url = URL(string: base + separator + "options=-csearch_path%3D\(schema)")!
let fetchedURL = URL(string: url.absoluteString + "&residency=fetched")!
let types: [any PersistentModel.Type] = [Shelf.self, Item.self]

// The data set: `objects` items on shelves of 10, scored 0..<objects.
do {
  let container = try ModelContainer(for: types, configurations: [ModelConfiguration(url: url)])
  let context = ModelContext(container)
  for first in stride(from: 0, to: objects, by: 10) {
    let shelf = Shelf()
    shelf.label = "s\(first / 10)"
    context.insert(shelf)
    shelf.items = (first..<min(first + 10, objects)).map { index in
      let item = Item()
      (item.name, item.score) = ("i\(index)", index)
      return item
    }
  }
  try context.save()
  container.store.persistence?.close()
}

/// The median time of `fetches` fetches of 20 items from a score no fetch read before, in a
/// fresh fetched-mode container whose context first changed `changes` items (renamed, so that
/// every fetch's window widens by them).
func medianFetch(changes: Int) throws -> Double {
  let container = try ModelContainer(
    for: types, configurations: [ModelConfiguration(url: fetchedURL)])
  defer { container.store.persistence?.close() }
  let context = ModelContext(container)
  if changes > 0 {
    let top = objects - changes
    for item in try context.fetch(FetchDescriptor<Item>(predicate: #Predicate { $0.score >= top }))
    {
      item.name += "x"
    }
  }
  var times: [Double] = []
  let step = max(1, (objects - changes) / (fetches + 1))
  for index in 0..<fetches {
    let low = index * step
    var descriptor = FetchDescriptor<Item>(
      predicate: #Predicate { $0.score >= low }, sortBy: [SortDescriptor(\.score)])
    descriptor.fetchLimit = 20
    let start = DispatchTime.now().uptimeNanoseconds
    let found = try context.fetch(descriptor)
    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3)
    guard found.count == 20, found.first?.score == low else {
      print("fetch from \(low) read \(found.count) items from \(found.first?.score ?? -1)")
      exit(1)
    }
  }
  return times.sorted()[times.count / 2]
}

var clean = 0.0
let counts = arguments.count > 2 ? [0, arguments[2]] : [0, 1, 100, 1_000, 5_000]
for changes in counts where changes < objects {
  let median = try medianFetch(changes: changes)
  if changes == 0 { clean = median }
  print(
    "fetched-fetch objects=\(objects) unsaved=\(changes) median-us=\(String(format: "%.0f", median)) "
      + "ratio-to-clean=\(String(format: "%.2f", median / clean))")
}
