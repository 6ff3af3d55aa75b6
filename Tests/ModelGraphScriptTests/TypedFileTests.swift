import Foundation
import ModelGraph
import ModelGraphScript
import Testing

/// A trip class written by a typed Swift process.
private class Journey: PersistentModel {
  @Attribute var name: String
  @Attribute var startDate: Date
  @Attribute(.unique) var code: String
  @Relationship(deleteRule: .cascade, inverse: \Leg.journey) var legs: [Leg]

  convenience init(name: String, start: Date, code: String) {
    self.init()
    self.name = name
    self.startDate = start
    self.code = code
  }
}

private final class BusinessJourney: Journey {
  @Attribute var company: String
}

private final class Leg: PersistentModel {
  @Attribute var city: String
  @Relationship var journey: Journey?
}

@Suite("Files written by the typed API")
struct TypedFileTests {
  @Test("a snapshot a typed process wrote opens in the runner with its schema and data")
  func typedSnapshot() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-typed-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("journeys.mgs")
    do {
      let container = try ModelContainer(
        for: Journey.self, configurations: ModelConfiguration(url: url))
      let context = ModelContext(container)
      let lisbon = Journey(
        name: "Lisbon", start: Date(timeIntervalSince1970: 1_777_000_000), code: "L1")
      let work = BusinessJourney(
        name: "Berlin", start: Date(timeIntervalSince1970: 1_778_000_000), code: "B1")
      work.company = "Acme"
      let leg = Leg()
      leg.city = "Porto"
      context.insert(lisbon)
      context.insert(work)
      context.insert(leg)
      lisbon.legs.append(leg)
      try context.save()
      try container.snapshot()
    }
    let result = InProcess.run(
      """
      open "\(url.path)"
      .schema Journey
      fetch Journey where ANY legs.city == "Porto"
      count Journey where (self AS BusinessJourney).company == "Acme"
      insert Journey { name: "Again", startDate: 2026-01-01, code: "L1" }
      save
      """, path: "typed")
    #expect(
      result.stdout.hasPrefix(
        "entity Journey {\n  name: String\n  startDate: Date\n  code: String unique\n"
          + "  legs: [Leg] inverse journey delete cascade\n}\n"))
    #expect(
      result.stdout.contains("Journey/0.0  Lisbon  2026-04-24T03:06:40Z  L1\n(1 object)\n1\n"))
    #expect(
      result.stderr.contains(
        "typed:6:1: error: save failed, nothing was saved: Journey.code: value \"L1\" is not unique"
      ))
  }
}

/// A Codable value a typed process stores in a composite attribute.
private struct Address: CompositeValue, Equatable {
  var city: String
  var zip: String
}

private final class Office: PersistentModel {
  @Attribute var name: String
  @Attribute var address: Address
}

@Suite("Codable values in files written by the typed API")
struct TypedCompositeTests {
  @Test("a Codable attribute shows as its JSON text; .dump refuses it with a clear error")
  func compositeShown() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-composite-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("offices.mgs")
    do {
      let container = try ModelContainer(
        for: Office.self, configurations: ModelConfiguration(url: url))
      let context = ModelContext(container)
      let office = Office()
      office.name = "HQ"
      office.address = Address(city: "Lisbon", zip: "1100")
      context.insert(office)
      try context.save()
      try container.snapshot()
    }
    let result = InProcess.run(
      "open \"\(url.path)\"\nfetch Office\nfetch Office.address\n.dump", path: "c")
    let json = try #require(
      String(data: try JSONEncoder().encode(Address(city: "Lisbon", zip: "1100")), encoding: .utf8))
    #expect(result.stdout.contains("Office/0.0  HQ    \(json)\n(1 object)\n"))
    #expect(
      result.stdout.hasSuffix(
        "address\n\(String(repeating: "-", count: json.count))\n\(json)\n(1 row)\n"))
    #expect(
      result.stderr.hasPrefix(
        "c:4:1: error: .dump cannot write Office.address: the runner cannot declare or insert"
          + " Codable (Address) values yet"))
  }
}
