import Foundation
import Testing

@testable import ModelGraphCore

/// A store whose schema changed (a lightweight migration, as the runner's `alter entity` runs)
/// becomes the files' store through a checkpoint: the new snapshot carries the new schema and a
/// fresh journal records the saves after it.
@Suite("Journal: a checkpoint of a store with a changed schema")
struct JournalSchemaChangeTests {
  /// The fixture's schema with an optional `rating: Int?` added to `Stay`.
  static func alteredCatalog() throws -> SchemaCatalog {
    var descriptions = SnapshotFixture.descriptions
    let stay = descriptions.firstIndex { $0.name == "Stay" }!
    descriptions[stay].attributes.append(
      AttributeDescription(name: "rating", valueType: .int, isOptional: true))
    return try SchemaCatalog().adding(descriptions)
  }

  /// The runner's sequence: migrate, commit a save in memory, checkpoint the new store with
  /// the old journal, attach it, then save again (its record uses the new schema's columns).
  static func alterAndSave(_ opened: JournalFixture.Opened, files: StoreFiles) throws -> Store {
    let migrated = try opened.store.version.migrated(to: alteredCatalog(), mode: .lightweight)
    let store = Store(loading: migrated.version)
    try JournalFixture.save(step: 10, store: store)
    try files.checkpoint(store, journal: opened.journal)
    store.attach(opened.journal)
    try JournalFixture.save(step: 11, store: store)
    return store
  }

  @Test("the new schema and every save after it survive reopening")
  func reopen() throws {
    let disk = SimFS()
    let files = StoreFiles(path: "/sim/store.mgs", io: disk)
    let opened = try JournalFixture.open(files)
    for step in 0..<4 { try JournalFixture.save(step: step, store: opened.store) }
    let store = try Self.alterAndSave(opened, files: files)
    opened.journal.close()
    let recovered = try #require(try files.recover().version)
    #expect(recovered.catalog.entity(named: "Stay")?.attributeSlot(named: "rating") == 1)
    #expect(SnapshotWriter.encode(recovered) == JournalFixture.bytes(store))
  }

  @Test("a crash or power loss at any step leaves the old schema and data or the new")
  func crashes() throws {
    func attempt(step: Int?, powerLoss: Bool) throws -> (problems: [String], steps: Int) {
      let disk = SimFS()
      let files = StoreFiles(path: "/sim/store.mgs", io: disk)
      let opened = try JournalFixture.open(files)
      for step in 0..<4 { try JournalFixture.save(step: step, store: opened.store) }
      let before = JournalFixture.bytes(opened.store)
      disk.resetSteps()
      disk.crashStep = step
      var after: [UInt8]?
      do {
        after = JournalFixture.bytes(try Self.alterAndSave(opened, files: files))
      } catch {
        // The crash, as the step that met it reports it.
      }
      let steps = disk.steps
      disk.restart(powerLoss: powerLoss)
      let label = "step \(step.map(String.init) ?? "-")\(powerLoss ? " + power loss" : "")"
      let recovered: StoreFiles.Recovered
      do {
        files.removeOrphans()
        recovered = try files.recover()
      } catch {
        return (["\(label): the files do not open: \(error)"], steps)
      }
      let state = recovered.version.map { SnapshotWriter.encode($0) }
      var problems: [String] = []
      if let after, state != after {
        problems.append("\(label): the acknowledged saves were lost")
      }
      // Between the old state and the end: the old schema with its data, or the new schema
      // with the save committed before the checkpoint (and maybe the one after).
      let altered = recovered.version?.catalog.entity(named: "Stay")?.attributeSlot(
        named: "rating")
      if state != before, altered == nil {
        problems.append("\(label): the old schema with other data")
      }
      if let version = recovered.version, altered != nil, version.number < 5 {
        problems.append("\(label): the new schema without the save committed with it")
      }
      let left = Set(disk.names(in: "/sim")).subtracting(["store.mgs", "store.mgs-journal"])
      if !left.isEmpty { problems.append("\(label): left \(left.sorted())") }
      // The files take a further save, whichever schema they hold.
      do {
        let store = Store(loading: recovered.version!)
        let journal = try files.openJournal(for: store, after: recovered, rewrite: false)
        store.attach(journal)
        try JournalFixture.save(step: 20, store: store)
        journal.close()
        if try JournalFixture.recoveredBytes(files) != JournalFixture.bytes(store) {
          problems.append("\(label): a save after recovery was not recovered")
        }
      } catch {
        problems.append("\(label): saving after recovery failed: \(error)")
      }
      return (problems, steps)
    }
    let clean = try attempt(step: nil, powerLoss: false)
    #expect(clean.problems.isEmpty, "\(clean.problems)")
    #expect(clean.steps >= 8)
    var problems: [String] = []
    for powerLoss in [false, true] {
      for step in 0...clean.steps {
        problems += try attempt(step: step, powerLoss: powerLoss).problems
      }
    }
    #expect(problems.isEmpty, "\(problems)")
  }
}
