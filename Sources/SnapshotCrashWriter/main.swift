// A process for the crash tests: it saves a store over and over, or holds a store's lock.
//
//   SnapshotCrashWriter save <file> [payload bytes]   take the lock, remove orphans, load the
//       file, then forever: add an entry with the next generation number, save, and print
//       "ack <generation>" once the save returned (one write(2) per line, so a printed
//       acknowledgement is never lost in a buffer).
//   SnapshotCrashWriter once <file> [payload bytes]   the same, for one generation, then exit.
//   SnapshotCrashWriter journal <file> [payload bytes] [checkpoint every] [saves]   as `save`,
//       but each save appends to the journal (durable when it returns) and only every Nth save
//       (default 25) is followed by a checkpoint; with `saves`, exits after that many.
//   SnapshotCrashWriter hold <file>                   take the lock, print "locked", and hold it
//       until standard input closes.
//
// The store has one entity, `Entry(generation: Int, payload: Data)`; a file of generation G holds
// the entries 1...G.
import Foundation
import ModelGraphCore

#if canImport(Glibc)
  import Glibc
#endif

func say(_ line: String) {
  var text = line + "\n"
  text.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("SnapshotCrashWriter: \(message)\n".utf8))
  exit(2)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else { fail("usage: SnapshotCrashWriter save|hold <file> [payload]") }
let path = arguments[2]
let io = SystemFileIO()
let lock: Int32
do {
  lock = try io.lock(path + ".lock")
} catch {
  fail("\(error)")
}

switch arguments[1] {
case "hold":
  say("locked")
  while (try? FileHandle.standardInput.read(upToCount: 1))??.isEmpty == false {}
  io.unlock(lock)
case "save", "once":
  let payload = Data(repeating: 0xA5, count: arguments.count > 3 ? Int(arguments[3]) ?? 0 : 0)
  let file = SnapshotFile(path: path, io: io)
  file.removeOrphans()
  let store: Store
  do {
    store = try file.load().map(Store.init(loading:)) ?? Store()
    try store.register([
      EntityDescription(
        name: "Entry",
        attributes: [
          AttributeDescription(name: "generation", valueType: .int),
          AttributeDescription(name: "payload", valueType: .data),
        ])
    ])
  } catch {
    fail("\(error)")
  }
  let session = Session(store: store)
  var generation = Int64(store.version.tables.first?.liveCount ?? 0)
  while true {
    generation += 1
    let key = session.insert(entity: 0)
    session.table(0).column(0, as: Int64.self)[Int(key.row)] = generation
    session.table(0).column(1, as: Data.self)[Int(key.row)] = payload
    do {
      try session.save()
      try file.save(store.version)
    } catch {
      fail("\(error)")
    }
    say("ack \(generation)")
    if arguments[1] == "once" { break }
  }
case "journal":
  let payload = Data(repeating: 0xA5, count: arguments.count > 3 ? Int(arguments[3]) ?? 0 : 0)
  let every = arguments.count > 4 ? Int(arguments[4]) ?? 25 : 25
  let limit = arguments.count > 5 ? Int(arguments[5]) ?? Int.max : Int.max
  let files = StoreFiles(path: path, io: io)
  files.removeOrphans()
  let store: Store
  let journal: Journal
  do {
    let recovered = try files.recover()
    store = recovered.version.map(Store.init(loading:)) ?? Store()
    try store.register([
      EntityDescription(
        name: "Entry",
        attributes: [
          AttributeDescription(name: "generation", valueType: .int),
          AttributeDescription(name: "payload", valueType: .data),
        ])
    ])
    journal = try files.openJournal(
      for: store, after: recovered, rewrite: recovered.version == nil)
    store.attach(journal)
  } catch {
    fail("\(error)")
  }
  let session = Session(store: store)
  var generation = Int64(store.version.tables.first?.liveCount ?? 0)
  for _ in 0..<limit {
    generation += 1
    let key = session.insert(entity: 0)
    session.table(0).column(0, as: Int64.self)[Int(key.row)] = generation
    session.table(0).column(1, as: Data.self)[Int(key.row)] = payload
    do {
      try session.save()
      say("ack \(generation)")
      if generation % Int64(every) == 0 { try files.checkpoint(store, journal: journal) }
    } catch {
      fail("\(error)")
    }
  }
default:
  fail("unknown mode \(arguments[1])")
}
