// journal-probe: the journal's costs, outside the workload harness.
//
//   journal-probe [megabytes] [directory]
//   journal-probe recover <snapshot path>   only the recovery, of files a run left in
//                                            `directory` (kept when it is given)
//
// Saves W13-shaped changes (a new trip and a new activity related to it, and one earlier
// trip's budget raised) through a Session on a file-backed store, one save each:
// 1. 2 000 saves with Durability.full: the median and 99th percentile of a save;
// 2. the same with Durability.none (the save's cost without the sync);
// 3. more saves with Durability.none until the journal holds `megabytes` (default 100) MB,
//    then the time to recover the store from the files (snapshot load and journal replay),
//    on the wall clock and in CPU, and the time reading the journal file alone takes.
import Foundation
import ModelGraphCore

let arguments = CommandLine.arguments

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// The CPU time the process has used, user and system, in nanoseconds.
func cpuNow() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Recovers the store at `path` and prints the time it took: `seconds` on the wall clock,
/// `cpu-seconds` of CPU (the recovery runs on one thread), and `read-seconds`, what reading
/// the journal file alone took just before (from the page cache once the file was read).
/// The recovery holds the files' lock, as a writable open does, so it maps the journal.
func recover(_ path: String) throws {
  let readStart = now()
  let bytes = try SystemFileIO().readFile(path + "-journal").count
  let read = Double(now() - readStart) / 1e9
  // As a writable open does: under the files' lock, which lets recovery map the journal.
  let io = SystemFileIO()
  let token = try io.lock(path + ".lock")
  defer { io.unlock(token) }
  let start = now()
  let cpuStart = cpuNow()
  let recovered = try StoreFiles(path: path).recover(holdingLock: true)
  let loaded = Store(loading: recovered.version!)
  let seconds = Double(now() - start) / 1e9
  let cpu = Double(cpuNow() - cpuStart) / 1e9
  print(
    "recovery journal-bytes=\(recovered.report.journalBytes) "
      + "records=\(recovered.report.replayedRecords) seconds=\(seconds) cpu-seconds=\(cpu) "
      + "read-seconds=\(read) read-bytes=\(bytes) "
      + "objects=\(loaded.version.count(of: 0, deep: true) + loaded.version.count(of: 1, deep: true))"
  )
}

if arguments.count == 3, arguments[1] == "recover" {
  try recover(arguments[2])
  exit(0)
}
let megabytes = arguments.count > 1 ? Int(arguments[1]) ?? 100 : 100
let keep = arguments.count > 2
let directory =
  arguments.count > 2
  ? arguments[2]
  : FileManager.default.temporaryDirectory.appendingPathComponent(
    "journal-probe-\(UUID().uuidString)"
  ).path
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
defer { if !keep { try? FileManager.default.removeItem(atPath: directory) } }

let descriptions = [
  EntityDescription(
    name: "Trip",
    attributes: [
      AttributeDescription(name: "name", valueType: .string),
      AttributeDescription(name: "destination", valueType: .string),
      AttributeDescription(name: "startDate", valueType: .date),
      AttributeDescription(name: "endDate", valueType: .date),
      AttributeDescription(name: "identifier", valueType: .uuid),
      AttributeDescription(name: "budget", valueType: .double),
    ],
    relationships: [
      RelationshipDescription(
        name: "activities", destination: "Activity", isToMany: true, deleteRule: .cascade)
    ]),
  EntityDescription(
    name: "Activity",
    attributes: [
      AttributeDescription(name: "name", valueType: .string),
      AttributeDescription(name: "isComplete", valueType: .bool),
      AttributeDescription(name: "dateCreated", valueType: .date),
    ],
    relationships: [
      RelationshipDescription(
        name: "trip", destination: "Trip", isToMany: false, inverse: "activities")
    ]),
]

/// Opens the store at `path` with `durability`.
func open(_ path: String, _ durability: Durability) throws -> (Store, Journal) {
  let files = StoreFiles(path: path)
  let recovered = try files.recover()
  let store = recovered.version.map { Store(loading: $0) } ?? Store()
  try store.register(descriptions)
  let journal = try files.openJournal(
    for: store, after: recovered, rewrite: recovered.version == nil, durability: durability,
    checkpointThreshold: .max)
  store.attach(journal)
  return (store, journal)
}

/// One W13-shaped save; returns its nanoseconds.
func save(_ session: Session, _ index: Int) throws -> UInt64 {
  let trip = session.insert(entity: 0)
  let trips = session.table(0)
  let row = Int(trip.row)
  trips.column(0, as: String.self)[row] = "New \(index)"
  trips.column(1, as: String.self)[row] = "City \(index % 500)"
  trips.column(2, as: Date.self)[row] = Date(timeIntervalSince1970: Double(index))
  trips.column(3, as: Date.self)[row] = Date(timeIntervalSince1970: Double(index + 86_400))
  trips.column(4, as: UUID.self)[row] = UUID()
  trips.column(5, as: Double.self)[row] = Double(index)
  for slot in 0..<6 { session.recordAttributeWrite(slot: slot, of: trip) }
  let activity = session.insert(entity: 1)
  let activities = session.table(1)
  activities.column(0, as: String.self)[Int(activity.row)] = "Step \(index)"
  activities.column(1, as: Bool.self)[Int(activity.row)] = false
  activities.column(2, as: Date.self)[Int(activity.row)] = Date(timeIntervalSince1970: 0)
  for slot in 0..<3 { session.recordAttributeWrite(slot: slot, of: activity) }
  session.setRelationship(of: trip, slot: 0, to: [activity])
  if index > 0 {
    let earlier = (index * 7919) % index
    if trips.isAlive(earlier) {
      trips.column(5, as: Double.self)[earlier] += 1
      let key = ObjectKey(entity: 0, row: earlier, generation: trips.generation(of: earlier))
      session.recordAttributeWrite(slot: 5, of: key)
    }
  }
  let start = now()
  try session.save()
  return now() - start
}

func percentile(_ values: [UInt64], _ q: Double) -> Double {
  let sorted = values.sorted()
  return Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))]) / 1e3
}

for durability in [Durability.full, .none] {
  let path = "\(directory)/\(durability == .full ? "full" : "none").mgs"
  let (store, journal) = try open(path, durability)
  let session = Session(store: store)
  var times: [UInt64] = []
  for index in 0..<2_000 { times.append(try save(session, index)) }
  print(
    "save durability=\(durability) saves=2000 p50-us=\(percentile(times, 0.5)) "
      + "p99-us=\(percentile(times, 0.99)) record-bytes=\(journal.size / 2_000)")
  journal.close()
}

let path = "\(directory)/big.mgs"
do {
  let (store, journal) = try open(path, .none)
  let session = Session(store: store)
  var index = 0
  let start = now()
  while journal.size < megabytes << 20 {
    _ = try save(session, index)
    index += 1
  }
  let seconds = Double(now() - start) / 1e9
  print(
    "filled journal-bytes=\(journal.size) records=\(index) seconds=\(seconds) "
      + "saves-per-second=\(Int(Double(index) / seconds))")
  journal.close()
}
try recover(path)
