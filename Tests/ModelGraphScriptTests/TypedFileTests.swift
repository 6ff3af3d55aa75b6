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
  var geo: Point? = nil
  var floors: [Int] = []
}

/// A Codable value inside another.
private struct Point: Codable, Equatable {
  var lat: Double
  var lon: Double
}

private final class Office: PersistentModel {
  @Attribute var name: String
  @Attribute var address: Address
}

@Suite("Codable values in files written by the typed API")
struct TypedCompositeTests {
  @Test("a Codable attribute shows as its JSON text; .dump declares its type and writes it")
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
      "open \"\(url.path)\"\nfetch Office where name == \"HQ\"\nfetch Office.address where name == \"HQ\"\n.dump",
      path: "c")
    // The JSON with its keys sorted, whatever order the encoder wrote them in.
    let json = #"{"city":"Lisbon","floors":[],"zip":"1100"}"#
    #expect(result.stdout.contains("Office/0.0  HQ    \(json)\n(1 object)\n"))
    #expect(
      result.stdout.contains(
        "address\n\(String(repeating: "-", count: json.count))\n\(json)\n(1 row)\n"))
    // The dump declares the type from the shape the file records, and writes the value.
    #expect(result.stderr == "")
    #expect(
      result.stdout.contains(
        "codable Address {city: String, zip: String, geo: {lat: Double, lon: Double}?,"
          + " floors: [Int]}\n"))
    #expect(
      result.stdout.contains(
        #"insert Office { name: "HQ", address: {city: "Lisbon", floors: [], zip: "1100"} }"#))
  }

  @Test("a Codable value's fields: in conditions, columns and groups, nested, tested by the runner")
  func compositeFields() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-fields-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("offices.mgs")
    do {
      let container = try ModelContainer(
        for: Office.self, configurations: ModelConfiguration(url: url))
      let context = ModelContext(container)
      for (name, address) in [
        ("HQ", Address(city: "Lisbon", zip: "1100")),
        ("Branch", Address(city: "Porto", zip: "4000", geo: Point(lat: 41.15, lon: -8.61))),
        ("Annex", Address(city: "Lisbon", zip: "1200", floors: [3, 4, 5])),
      ] {
        let office = Office()
        office.name = name
        office.address = address
        context.insert(office)
      }
      try context.save()
      try container.snapshot()
    }
    let result = InProcess.run(
      """
      open "\(url.path)"
      fetch Office.name, address.city, address.geo.lat, address.floors.@count where address.city BEGINSWITH "L" OR address.geo.lat > 41 sort name
      count Office by address.city
      count Office where address.geo.lat > 40 AND address.zip == "4000"
      .explain fetch Office where address.city == "Lisbon"
      count Office where address.street == "Main"
      count Office where address.city > 3
      """, path: "f", keepGoing: true)
    #expect(
      result.stdout.hasPrefix(
        """
        name    address.city  address.geo.lat  address.floors.@count
        ------  ------------  ---------------  ---------------------
        Annex   Lisbon                    nil                      3
        Branch  Porto                   41.15                      0
        HQ      Lisbon                    nil                      0
        (3 rows)
        address.city  count
        ------------  -----
        Lisbon            2
        Porto             1
        (2 groups)
        1

        """))
    #expect(result.stdout.contains("runner: tests address.city == \"Lisbon\" on each candidate"))
    #expect(
      result.stderr.contains(
        "f:6:28: error: cannot read the field 'street' of Address: the Swift type declares no"
          + " such field (its fields: city, floors, geo, zip)"))
    #expect(
      result.stderr.contains("f:7:35: error: type mismatch: address.city is String, 3 is Int"))
    #expect(result.exit == 1)
  }
}
