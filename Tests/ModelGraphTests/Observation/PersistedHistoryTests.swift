import Foundation
import ModelGraph
import Testing

@Suite("History on a file-backed container survives restarts and checkpoints")
struct PersistedHistoryTests {
  private typealias Transactions = HistoryDescriptor<DefaultHistoryTransaction>

  private func open(_ url: URL) throws -> ModelContainer {
    try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url))
  }

  /// Three saves by two authors: an insert, an update, a delete with a preserved value.
  private func saveThree(_ container: ModelContainer) throws -> PersistentIdentifier {
    let context = ModelContext(container)
    context.author = "importer"
    let trip = Trip(name: "Oslo")
    trip.auditCode = "A-1"
    context.insert(trip)
    try context.save()
    context.author = "editor"
    trip.name = "Bergen"
    try context.save()
    context.delete(trip)
    try context.save()
    return trip.persistentModelID
  }

  @Test("authors, dates, changes and tokens come back after closing and reopening")
  func restart() throws {
    let scratch = try SnapshotScratch()
    let before: [DefaultHistoryTransaction]
    let id: PersistentIdentifier
    do {
      let container = try open(scratch.store)
      id = try saveThree(container)
      before = try ModelContext(container).fetchHistory(Transactions())
    }
    let container = try open(scratch.store)
    let context = ModelContext(container)
    let after = try context.fetchHistory(Transactions())
    #expect(after == before)
    #expect(after.map(\.author) == ["importer", "editor", "editor"])
    #expect(after.last?.changes == [.delete(id, tombstone: ["auditCode": .string("A-1")])])
    #expect(!context.isHistoryExpired(after: DefaultHistoryToken(version: 0)))
    // A token kept by the first run still finds what came after it.
    let token = try JSONDecoder().decode(
      DefaultHistoryToken.self, from: JSONEncoder().encode(before[0].token))
    let later = try context.fetchHistory(Transactions(predicate: #Predicate { $0.token > token }))
    #expect(later == Array(before.dropFirst()))
    // Saves after the restart continue the sequence.
    context.insert(Trip(name: "Tromsø"))
    try context.save()
    let all = try context.fetchHistory(Transactions())
    #expect(all.count == 4 && all[3].token.version == before[2].token.version + 1)
  }

  @Test("the retention and deleteHistory(before:) hold across a restart")
  func retentionAcrossRestart() throws {
    let scratch = try SnapshotScratch()
    var tokens: [DefaultHistoryToken] = []
    do {
      let container = try open(scratch.store)
      container.store.history.retention = .init(transactions: 3)
      let context = ModelContext(container)
      for index in 0..<5 {
        context.insert(Trip(name: "trip \(index)"))
        try context.save()
      }
      tokens = try context.fetchHistory(Transactions()).map(\.token)
      #expect(tokens.count == 3)
    }
    do {
      let container = try open(scratch.store)
      let context = ModelContext(container)
      #expect(try context.fetchHistory(Transactions()).map(\.token) == tokens)
      #expect(context.isHistoryExpired(after: DefaultHistoryToken(version: 1)))
      #expect(!context.isHistoryExpired(after: tokens[0]))
      context.deleteHistory(before: tokens[2])
      // The deletion is written with the next save.
      context.insert(Trip(name: "trip 5"))
      try context.save()
    }
    let context = ModelContext(try open(scratch.store))
    let kept = try context.fetchHistory(Transactions()).map(\.token.version)
    #expect(kept == [tokens[2].version, tokens[2].version + 1])
    #expect(context.isHistoryExpired(after: tokens[0]))
  }

  @Test("a checkpoint carries the history in the snapshot; saves after it are in the journal")
  func acrossCheckpoint() throws {
    let scratch = try SnapshotScratch()
    let before: [DefaultHistoryTransaction]
    do {
      let container = try open(scratch.store)
      _ = try saveThree(container)
      try container.snapshot()
      let context = ModelContext(container)
      context.author = "late"
      context.insert(Trip(name: "after the checkpoint"))
      try context.save()
      before = try context.fetchHistory(Transactions())
    }
    let container = try open(scratch.store)
    #expect(container.recoveryReport.replayedRecords == 1)
    let after = try ModelContext(container).fetchHistory(Transactions())
    #expect(after == before && after.count == 4 && after.last?.author == "late")
  }

  @Test("after a crash, recovery from the journal brings the history of every whole record")
  func afterCrash() throws {
    let scratch = try SnapshotScratch()
    let crashed = scratch.directory.appendingPathComponent("crashed.mgs")
    let container = try open(scratch.store)
    _ = try saveThree(container)
    try container.snapshot()
    let context = ModelContext(container)
    context.insert(Trip(name: "journal only"))
    try context.save()
    let before = try context.fetchHistory(Transactions())
    // The files as a crash leaves them (the container never closes): the saves are durable.
    let files = FileManager.default
    try files.copyItem(at: scratch.store, to: crashed)
    var journal = try Data(contentsOf: URL(fileURLWithPath: scratch.store.path + "-journal"))
    journal.append(contentsOf: [0x4D, 0x47, 0x4A, 0x52, 7, 7, 7])  // a torn record
    try journal.write(to: URL(fileURLWithPath: crashed.path + "-journal"))
    let recovered = try open(crashed)
    #expect(recovered.recoveryReport.replayedRecords == 1)
    #expect(recovered.recoveryReport.droppedRecords == 1)
    #expect(try ModelContext(recovered).fetchHistory(Transactions()) == before)
    _ = container
  }
}
