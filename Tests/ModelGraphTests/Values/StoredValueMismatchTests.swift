import Foundation
import ModelGraph
import Testing

/// The app's first version: an enum with three cases, a `Codable` address with a `city`, and an
/// `Int` count.
enum StoredV1 {
  enum Level: Int, PersistentValue { case low, medium, high }
  struct Address: Codable { var city: String }

  final class Ticket: PersistentModel {
    @Attribute var title: String
    @Attribute var level: Level
    @Attribute var address: Address?
    @Attribute var count: Int
    @Attribute var history: [Level] = []
  }
}

/// The next version: the enum lost `high`, the address's field is now `town`, the count is an
/// `Int8`. The stored kinds are the same, so the file opens without a migration plan when every
/// stored count fits an `Int8`.
enum StoredV2 {
  enum Level: Int, PersistentValue { case low, medium }
  struct Address: Codable { var town: String }

  final class Ticket: PersistentModel {
    @Attribute var title: String
    @Attribute var level: Level
    @Attribute var address: Address?
    @Attribute var count: Int8
    @Attribute var history: [Level] = []
  }
}

/// Writes a version-1 store at `url` with a ticket every version-2 type can read (`fine`) and,
/// when `withStale` is true, one whose level, address and history it cannot (`stale`), with
/// `staleCount` as its count.
private func writeVersion1(at url: URL, withStale: Bool, staleCount: Int = 100) throws {
  let container = try ModelContainer(
    for: StoredV1.Ticket.self, configurations: ModelConfiguration(url: url))
  let context = ModelContext(container)
  let fine = StoredV1.Ticket()
  fine.title = "fine"
  fine.level = .medium
  fine.count = 5
  context.insert(fine)
  if withStale {
    let stale = StoredV1.Ticket()
    stale.title = "stale"
    stale.level = .high
    stale.address = StoredV1.Address(city: "Porto")
    stale.count = staleCount
    stale.history = [.low, .high]
    context.insert(stale)
  }
  try context.save()
}

/// A context on the store at `url`, with the version-2 classes.
private func openVersion2(at url: URL) throws -> ModelContext {
  ModelContext(
    try ModelContainer(for: StoredV2.Ticket.self, configurations: ModelConfiguration(url: url)))
}

/// The directory an exit test's child process writes its store in for `property`, named after
/// the test process (`testProcess`), which removes it: the child stops before it could.
private func staleDirectory(_ property: String, testProcess: Int32) -> URL {
  FileManager.default.temporaryDirectory.appendingPathComponent(
    "modelgraph-stale-\(property)-\(testProcess)")
}

/// Reads `property` of the stale ticket of a version-1 store with version 2, which stops. Runs in
/// an exit test's child process, whose parent is the test process.
private func readStale(_ property: String) throws {
  let directory = staleDirectory(property, testProcess: getppid())
  try? FileManager.default.removeItem(at: directory)
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  let store = directory.appendingPathComponent("tickets.mgs")
  try writeVersion1(at: store, withStale: true)
  let context = try openVersion2(at: store)
  let tickets = try context.fetch(FetchDescriptor<StoredV2.Ticket>())
  guard let stale = tickets.first(where: { $0.title == "stale" }) else { return }
  switch property {
  case "level": _ = stale.level
  case "address": _ = stale.address
  default: _ = stale.history
  }
}

@Suite("Values stored by another version of their type")
struct StoredValueMismatchTests {
  @Test("validateStoredValues names each value the declared type has no value for")
  func validationListsMismatches() throws {
    let scratch = try SnapshotScratch()
    try writeVersion1(at: scratch.store, withStale: true)
    let context = try openVersion2(at: scratch.store)
    let tickets = try context.fetch(FetchDescriptor<StoredV2.Ticket>())
    let stale = try #require(tickets.first(where: { $0.title == "stale" }))
    let error = try #require(throws: ModelError.self) { try context.validateStoredValues() }
    #expect(error.code == .storedValueMismatch)
    #expect(error.violations.count == 3, "\(error)")
    #expect(error.violations.allSatisfy { $0.entity == "Ticket" })
    #expect(error.violations.allSatisfy { $0.identifier == stale.persistentModelID })
    let rules = Dictionary(uniqueKeysWithValues: error.violations.map { ($0.property, $0.rule) })
    #expect(rules["level"] == "no case of Level has the raw value 2")
    #expect(rules["history"] == "element 1: no case of Level has the raw value 2")
    let address = try #require(rules["address"])
    #expect(address.hasPrefix("'{\"city\":\"Porto\"}' does not decode as Address"), "\(address)")
    // The other ticket reads as it was stored.
    let fine = try #require(tickets.first(where: { $0.title == "fine" }))
    #expect(fine.level == .medium)
    #expect(fine.count == 5)
    #expect(fine.address == nil)
  }

  @Test("validateStoredValues passes a store whose values all fit the declared types")
  func validationPasses() throws {
    let scratch = try SnapshotScratch()
    try writeVersion1(at: scratch.store, withStale: false)
    let context = try openVersion2(at: scratch.store)
    try context.validateStoredValues()
    #expect(try context.fetch(FetchDescriptor<StoredV2.Ticket>()).map(\.level) == [.medium])
  }

  @Test("reading a raw value no case has stops, naming the class, property, object and value")
  func readRemovedCase() async throws {
    let result = try #require(
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        try readStale("level")
      })
    expectNamed(result, "level", "no case of Level has the raw value 2")
  }

  @Test("reading a Codable value of another shape stops, naming the value and the error")
  func readChangedShape() async throws {
    let result = try #require(
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        try readStale("address")
      })
    expectNamed(result, "address", "'{\"city\":\"Porto\"}' does not decode as Address")
  }

  @Test("a store holding an integer too wide for the declared type does not open")
  func openRefusesTooWide() throws {
    let scratch = try SnapshotScratch()
    try writeVersion1(at: scratch.store, withStale: true, staleCount: 300)
    let before = try Data(contentsOf: scratch.store)
    let error = try #require(throws: MigrationError.self) { try openVersion2(at: scratch.store) }
    #expect(error.code == .invalidData)
    #expect(
      error.message.hasPrefix(
        "Ticket.count is Int8 now, but Ticket/1.0 holds a value it cannot: 300 is out of the "
          + "range of Int8 (-128...127)"), "\(error)")
    #expect(try Data(contentsOf: scratch.store) == before)
  }

  @Test("reading an array with an element no case has stops, naming the element")
  func readArrayElement() async throws {
    let result = try #require(
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        try readStale("history")
      })
    expectNamed(result, "history", "element 1: no case of Level has the raw value 2")
  }

  private func expectNamed(_ result: ExitTest.Result, _ property: String, _ problem: String) {
    try? FileManager.default.removeItem(at: staleDirectory(property, testProcess: getpid()))
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(message.contains("Ticket.\(property) of Ticket/"), "\(message)")
    #expect(message.contains("holds a value stored by another version of its type"))
    #expect(message.contains(problem), "\(message)")
    #expect(message.contains("validateStoredValues()"))
  }
}
