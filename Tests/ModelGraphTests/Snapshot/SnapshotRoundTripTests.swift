import Foundation
import ModelGraph
import Testing

/// A temporary directory removed when the test ends.
final class SnapshotScratch {
  let directory: URL

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  var store: URL { directory.appendingPathComponent("trips.mgs") }

  deinit { try? FileManager.default.removeItem(at: directory) }
}

@Suite("Snapshot round trips")
struct SnapshotRoundTripTests {
  @Test("a saved hierarchy survives a snapshot and a reopen, identifiers included")
  func hierarchyRoundTrip() throws {
    let scratch = try SnapshotScratch()
    var ids: [PersistentIdentifier] = []
    do {
      let container = try ModelContainer(
        for: Trip.self, configurations: ModelConfiguration(url: scratch.store))
      let context = ModelContext(container)
      let trips: [Trip] = [
        Trip(name: "plain"), BusinessTrip(name: "work", company: "Acme"),
        PersonalTrip(name: "fun", reason: .adventure, companions: ["Ann", "Bo"]),
      ]
      trips[0].auditCode = "A-1"
      for trip in trips { context.insert(trip) }
      try context.save()
      ids = trips.map(\.persistentModelID)
      let bytes = try container.snapshot()
      #expect(bytes > 0)
    }
    let container = try ModelContainer(
      for: Trip.self, configurations: ModelConfiguration(url: scratch.store))
    let context = ModelContext(container)
    let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
    #expect(trips.map(\.name) == ["fun", "plain", "work"])
    #expect(trips.map(\.persistentModelID).sorted() == ids.sorted())
    let personal = try #require(trips[0] as? PersonalTrip)
    #expect(personal.reason == .adventure && personal.companions == ["Ann", "Bo"])
    #expect((trips[2] as? BusinessTrip)?.company == "Acme")
    #expect(trips[1].auditCode == "A-1")
  }

  @Test("a second container on the same file is refused while the first holds it")
  func locked() throws {
    let scratch = try SnapshotScratch()
    let first = try ModelContainer(
      for: Trip.self, configurations: ModelConfiguration(url: scratch.store))
    let error = try #require(throws: SnapshotError.self) {
      _ = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: scratch.store))
    }
    #expect(error.code == .locked)
    _ = first
  }

  @Test("a directory at the path, an empty file and a wrong magic give specific errors")
  func badPaths() throws {
    let scratch = try SnapshotScratch()
    try FileManager.default.createDirectory(at: scratch.store, withIntermediateDirectories: true)
    let directory = try #require(throws: SnapshotError.self) {
      _ = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: scratch.store))
    }
    #expect(directory.message.contains("directory"))
    try FileManager.default.removeItem(at: scratch.store)
    try Data().write(to: scratch.store)
    let empty = try #require(throws: SnapshotError.self) {
      _ = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: scratch.store))
    }
    #expect(empty.code == .truncated)
    try Data("definitely not a snapshot file at all".utf8).write(to: scratch.store)
    let magic = try #require(throws: SnapshotError.self) {
      _ = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: scratch.store))
    }
    #expect(magic.code == .badMagic)
    #expect(try Data(contentsOf: scratch.store).count == 37, "a bad file is never replaced")
  }
}
