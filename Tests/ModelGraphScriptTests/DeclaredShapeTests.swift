import Foundation
import ModelGraph
import Testing

@testable import ModelGraphScript

/// A Codable value with every kind of field the shape records.
private struct Parcel: CompositeValue, Equatable {
  enum Size: String, Codable { case small, large }
  var label: String
  var weight: Double
  var count: Int
  var size: Size
  var sent: Date
  var stops: [Stop]
  var note: String? = nil
}

private struct Stop: Codable, Equatable {
  var city: String
  var hours: [Int]
}

private final class Shipment: PersistentModel {
  @Attribute var name: String
  @Attribute var parcel: Parcel
}

@Suite("Codable shapes recorded in the file's schema, read by the runner")
struct DeclaredShapeTests {
  /// A file a typed process made with no Shipment stored.
  private static func emptyFile() throws -> (directory: URL, url: URL) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-shape-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent("shipments.mgs")
    let container = try ModelContainer(
      for: Shipment.self, configurations: ModelConfiguration(url: url))
    try container.snapshot()
    return (directory, url)
  }

  @Test(".schema shows the declared shape; a value inserts with no value stored before")
  func declaredShape() throws {
    let (directory, url) = try Self.emptyFile()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = InProcess.run(
      """
      open "\(url.path)"
      .schema Shipment
      insert Shipment { name: "A", parcel: {label: "box", weight: 2.5, count: 3, size: "large", sent: 0, stops: [{city: "Faro", hours: [9, 17]}]} }
      save
      fetch Shipment.name, parcel.stops.@count where parcel.weight > 2
      """, path: "d")
    #expect(result.stderr == "")
    #expect(
      result.stdout.hasPrefix(
        """
        entity Shipment {
          name: String
          parcel: Parcel  -- Codable {label: String, weight: Double, count: Int, size: String, \
        sent: Date, stops: [{city: String, hours: [Int]}], note: String?}
        }

        """))
    #expect(result.stdout.hasSuffix("A                       1\n(1 row)\n"))
    let container = try ModelContainer(
      for: Shipment.self, configurations: ModelConfiguration(url: url))
    let shipments = try ModelContext(container).fetch(FetchDescriptor<Shipment>())
    #expect(
      shipments.map(\.parcel) == [
        Parcel(
          label: "box", weight: 2.5, count: 3, size: .large,
          sent: Date(timeIntervalSinceReferenceDate: 0),
          stops: [Stop(city: "Faro", hours: [9, 17])])
      ])
  }

  @Test("alter entity keeps the recorded shapes and the history; the altered file has them")
  func alterKeepsShapes() throws {
    let (directory, url) = try Self.emptyFile()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = InProcess.run(
      """
      open "\(url.path)"
      insert Shipment { name: "A", parcel: {label: "box", weight: 1, count: 1, size: "small", sent: 0, stops: []} }
      save
      alter entity Shipment add tag: String?
      snapshot
      """, path: "a")
    #expect(result.stderr == "")
    let reopened = InProcess.run(
      "open \"\(url.path)\"\n.schema Shipment\n.changes since 0", path: "b")
    #expect(reopened.stdout.contains("parcel: Parcel  -- Codable {label: String,"))
    #expect(reopened.stdout.contains("Shipment/0.0"))
  }

  @Test("the declaration decides: unknown fields, missing required ones and nil are refused")
  func declarationChecks() throws {
    let (directory, url) = try Self.emptyFile()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = InProcess.run(
      """
      open "\(url.path)"
      insert Shipment { name: "A", parcel: {label: "box", weight: 1, count: 1, size: "small", sent: 0, stops: [], colour: "red"} }
      insert Shipment { name: "B", parcel: {label: "box", weight: 1, size: "small", sent: 0, stops: []} }
      insert Shipment { name: "C", parcel: {label: nil, weight: 1, count: 1, size: "small", sent: 0, stops: []} }
      count Shipment where parcel.colour == "red"
      """, path: "e", keepGoing: true)
    let lines = result.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("e:") }
    #expect(
      lines == [
        "e:2:109: error: Parcel has no field 'colour' (the Swift type declares: count, label, note,"
          + " sent, size, stops, weight)",
        "e:3:38: error: Parcel needs the field count (the Swift type requires it)",
        "e:4:46: error: Parcel.label is not optional in the Swift type; it cannot be nil",
        "e:5:29: error: cannot read the field 'colour' of Parcel: the Swift type declares no such"
          + " field (its fields: count, label, note, sent, size, stops, weight)",
      ])
  }
}

@Suite("A dump of a file a Swift app wrote rebuilds it, Codable values included")
struct DeclaredShapeDumpTests {
  @Test("dump, run the dump into a new file, and the Swift app reads the same values")
  func swiftFileRoundTrip() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-shape-dump-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let original = directory.appendingPathComponent("a.mgs")
    let rebuilt = directory.appendingPathComponent("b.mgs")
    let parcels = [
      Parcel(
        label: "box \"1\"", weight: 2.5, count: 3, size: .large,
        sent: Date(timeIntervalSinceReferenceDate: 86_400.5),
        stops: [Stop(city: "Faro", hours: [9, 17]), Stop(city: "Beja", hours: [])], note: "fragile"),
      Parcel(
        label: "bag", weight: 1, count: 0, size: .small,
        sent: Date(timeIntervalSinceReferenceDate: 0),
        stops: []),
    ]
    do {
      let container = try ModelContainer(
        for: Shipment.self, configurations: ModelConfiguration(url: original))
      let context = ModelContext(container)
      for (index, parcel) in parcels.enumerated() {
        let shipment = Shipment()
        shipment.name = "s\(index)"
        shipment.parcel = parcel
        context.insert(shipment)
      }
      try context.save()
    }
    let dump = InProcess.run("open \"\(original.path)\"\n.dump", path: "d")
    #expect(dump.stderr == "")
    let rebuild = InProcess.run("open \"\(rebuilt.path)\"\n" + dump.stdout, path: "r")
    #expect(rebuild.stderr == "")
    let again = InProcess.run("open \"\(rebuilt.path)\"\n.dump", path: "d2")
    #expect(again.stdout == dump.stdout)
    let container = try ModelContainer(
      for: Shipment.self, configurations: ModelConfiguration(url: rebuilt))
    let read = try ModelContext(container).fetch(
      FetchDescriptor<Shipment>(sortBy: [SortDescriptor(\.name)]))
    #expect(read.map(\.parcel) == parcels)
  }
}
