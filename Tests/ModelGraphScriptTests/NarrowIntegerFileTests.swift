import Foundation
import ModelGraph
import ModelGraphCore
import ModelGraphScript
import Testing

/// A class with integer attributes narrower than 64 bits, which the engine stores as 64 bits.
private final class Gauge: PersistentModel {
  @Attribute var name: String
  @Attribute var small: Int8
  @Attribute var level: UInt16?
}

/// A value out of a narrow integer attribute's type never reaches a typed object: the runner
/// refuses to save it into a file a typed process wrote, and a typed container refuses to open
/// a file whose stored values its declared types cannot hold (reading one used to stop the
/// process), leaving the file as it was.
@Suite("Narrow integer attributes across front ends")
struct NarrowIntegerFileTests {
  /// A file a typed process wrote: one gauge, small 7, level 9.
  private func typedFile(in directory: URL) throws -> URL {
    let url = directory.appendingPathComponent("gauges.mgs")
    let container = try ModelContainer(
      for: Gauge.self, configurations: ModelConfiguration(url: url))
    let context = ModelContext(container)
    let gauge = Gauge()
    gauge.name = "g"
    gauge.small = 7
    gauge.level = 9
    context.insert(gauge)
    try context.save()
    try container.snapshot()
    return url
  }

  /// The gauges of the file at `url`, as a typed container reads them.
  private func typedValues(_ url: URL) throws -> [String] {
    let container = try ModelContainer(
      for: Gauge.self, configurations: ModelConfiguration(url: url))
    let context = ModelContext(container)
    // Lists a value the type cannot hold instead of stopping the process on the read.
    try context.validateStoredValues()
    return try context.fetch(FetchDescriptor<Gauge>(sortBy: [SortDescriptor(\.name)])).map {
      "\($0.name) \($0.small) \($0.level.map(String.init) ?? "nil")"
    }
  }

  @Test("the runner refuses to save a value out of the declared type into a typed file")
  func runnerRefusesOutOfRange() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = try typedFile(in: directory)
    let result = InProcess.run(
      """
      open "\(url.path)"
      .schema Gauge
      update Gauge set small = 300
      save
      rollback
      update Gauge set level = 70000
      save
      rollback
      insert Gauge { name: "h", small: -128, level: 65535 }
      save
      """, path: "narrow", keepGoing: true)
    #expect(
      result.stdout.hasPrefix(
        "entity Gauge {\n  name: String\n  small: Int8\n  level: UInt16?\n}\n"))
    #expect(
      result.stderr.contains(
        "narrow:4:1: error: save failed, nothing was saved: Gauge.small: "
          + "300 is out of the range of Int8 (-128...127) (Gauge/0.0)"))
    #expect(
      result.stderr.contains(
        "Gauge.level: 70000 is out of the range of UInt16 (0...65535) (Gauge/0.0)"))
    #expect(try typedValues(url) == ["g 7 9", "h -128 65535"])
  }

  @Test("a typed container refuses a file holding a value its narrower type cannot hold")
  func typedOpenRefusesOutOfRange() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("gauges.mgs")
    // A 64-bit column, as a file of an earlier format or another front end holds it.
    let written = InProcess.run(
      """
      open "\(url.path)"
      entity Gauge { name: String; small: Int; level: UInt? }
      insert Gauge { name: "g", small: 300, level: 1 }
      save
      """, path: "wide")
    #expect(written.stderr == "")
    let before = try Data(contentsOf: url)
    let message = try #require(try refusal(url))
    #expect(message.contains("Gauge.small"), "\(message)")
    #expect(message.contains("Gauge/0.0"), "\(message)")
    #expect(message.contains("300 is out of the range of Int8 (-128...127)"), "\(message)")
    #expect(try Data(contentsOf: url) == before)
  }

  @Test("a typed container refuses a journal record holding a value out of the declared type")
  func typedOpenRefusesJournalValue() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = try typedFile(in: directory)
    // Another process writes through the core, whose sessions publish without validating.
    try writeThroughCore(.int(300), entity: "Gauge", attribute: "small", in: url)
    let error = try #require(try refusal(url))
    #expect(
      error.contains("Gauge.small (Gauge/0.0): 300 is out of the range of Int8 (-128...127)"),
      "\(error)")
  }

  /// What opening the file at `url` with a typed container throws, or `nil` when it opens.
  private func refusal(_ url: URL) throws -> String? {
    do {
      _ = try typedValues(url)
      return nil
    } catch let error as ModelError {
      #expect(error.code == .storedValueMismatch)
      return "\(error)"
    } catch let error as MigrationError {
      #expect(error.code == .invalidData)
      return "\(error)"
    }
  }

  @Test("a typed container adopts its narrower type for a 64-bit column whose values fit")
  func typedOpenAdoptsWidth() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("gauges.mgs")
    let written = InProcess.run(
      """
      open "\(url.path)"
      entity Gauge { name: String; small: Int; level: UInt? }
      insert Gauge { name: "g", small: -5, level: nil }
      save
      """, path: "wide")
    #expect(written.stderr == "")
    #expect(try typedValues(url) == ["g -5 nil"])
    let result = InProcess.run(
      "open \"\(url.path)\"\n.schema Gauge\nupdate Gauge set small = 128\nsave", path: "again")
    #expect(
      result.stdout.hasPrefix(
        "entity Gauge {\n  name: String\n  small: Int8\n  level: UInt16?\n}\n"))
    #expect(result.stderr.contains("Gauge.small: 128 is out of the range of Int8"))
  }

  @Test("a width the runner declares survives the journal and the snapshot")
  func runnerWidthPersists() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("gauges.mgs")
    let declared = InProcess.run(
      """
      open "\(url.path)"
      entity Gauge { name: String; small: Int8; level: UInt16? }
      insert Gauge { name: "g", small: 1, level: nil }
      save
      """, path: "declare")
    #expect(declared.stderr == "")
    for step in ["journal", "snapshot"] {
      let result = InProcess.run(
        """
        open "\(url.path)"
        .schema Gauge
        update Gauge set small = -129
        save
        rollback
        \(step == "journal" ? "snapshot" : "")
        """, path: step, keepGoing: true)
      #expect(
        result.stdout.hasPrefix(
          "entity Gauge {\n  name: String\n  small: Int8\n  level: UInt16?\n}\n"), "\(step)")
      #expect(
        result.stderr.contains(
          "Gauge.small: -129 is out of the range of Int8 (-128...127) (Gauge/0.0)"), "\(step)")
    }
    #expect(try typedValues(url) == ["g 1 nil"])
  }
}
