// codable-equality-probe: `==` on a Codable attribute in a #Predicate, run by the engine (a
// comparison of canonical JSON bytes) against the same test left to Foundation.
//
//   codable-equality-probe [items]
//
// On an in-memory container of `items` items (default 100 000), each with the same labels in
// two attributes: `labels: [String: String]`, whose `==` the engine evaluates, and
// `wrapped: ProbeLabels`, a struct holding that dictionary, whose `==` stays with Foundation.
// One label set in 100 matches. Prints the median over 7 interleaved runs of each fetch.
import Foundation
import ModelGraph

struct ProbeLabels: Codable, Equatable {
  var values: [String: String]
}

final class ProbeItem: PersistentModel {
  @Attribute var index: Int
  @Attribute var labels: [String: String]
  @Attribute var wrapped: ProbeLabels

  convenience init(index: Int, labels: [String: String]) {
    self.init()
    self.index = index
    self.labels = labels
    self.wrapped = ProbeLabels(values: labels)
  }
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 100_000 : 100_000
let container = try ModelContainer(
  for: ProbeItem.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
let loader = ModelContext(container)
for index in 0..<count {
  let group = index % 100
  loader.insert(ProbeItem(index: index, labels: ["color": "c\(group)", "size": "s\(group % 7)"]))
}
try loader.save()
print("# codable-equality-probe items=\(count)")

let wanted = ["size": "s\(42 % 7)", "color": "c42"]
let wrappedWanted = ProbeLabels(values: wanted)
let engine = FetchDescriptor<ProbeItem>(predicate: #Predicate { $0.labels == wanted })
let foundation = FetchDescriptor<ProbeItem>(predicate: #Predicate { $0.wrapped == wrappedWanted })
let context = ModelContext(container)
print(try context.explain(engine))
print(try context.explain(foundation))

var engineTimes: [UInt64] = []
var foundationTimes: [UInt64] = []
var checks: [Int] = []
for _ in 0..<7 {
  var start = now()
  let byEngine = try ModelContext(container).fetch(engine)
  engineTimes.append(now() - start)
  start = now()
  let byFoundation = try ModelContext(container).fetch(foundation)
  foundationTimes.append(now() - start)
  checks.append(byEngine.count)
  precondition(
    Set(byEngine.map(\.index)) == Set(byFoundation.map(\.index)),
    "the two fetches disagree")
}
let engineMedian = engineTimes.sorted()[3]
let foundationMedian = foundationTimes.sorted()[3]
print("matches \(checks[0])")
print("engine     median \(Double(engineMedian) / 1e6) ms")
print("foundation median \(Double(foundationMedian) / 1e6) ms")
print("ratio \(Double(foundationMedian) / Double(engineMedian))")
