import Foundation
import ModelGraph
import Testing

@testable import ModelGraphScript

/// A Codable value a typed process stores: `geo` is left out of the JSON when `nil`.
private struct Place: CompositeValue, Equatable {
  var city: String
  var zip: String
  var geo: Spot? = nil
  var floors: [Int] = []
}

private struct Spot: Codable, Equatable {
  var lat: Double
  var lon: Double
}

private final class Site: PersistentModel {
  @Attribute var name: String
  @Attribute var place: Place
}

/// A Codable value whose `value` is a number in some objects and a string in others.
private struct Code: CompositeValue {
  var value: String

  init(_ value: String) { self.value = value }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Keys.self)
    if let number = try? container.decode(Int.self, forKey: .value) {
      value = String(number)
    } else {
      value = try container.decode(String.self, forKey: .value)
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    if let number = Int(value) {
      try container.encode(number, forKey: .value)
    } else {
      try container.encode(value, forKey: .value)
    }
  }

  private enum Keys: String, CodingKey { case value }
}

private final class Badge: PersistentModel {
  @Attribute var code: Code
}

/// A Codable value whose list is empty in every stored value.
private struct Memo: CompositeValue {
  var text: String
  var tags: [String] = []
}

private final class Board: PersistentModel {
  @Attribute var memo: Memo
}

/// The suite's files are written by a typed process, then stripped of the Codable shapes their
/// schema records, as files written before format 5 are: the runner infers the shapes.
@Suite("Codable values: shapes inferred from every stored value, and inserted from scripts")
struct CodableValueTests {
  /// A file with three sites written by a typed process, in a new directory.
  private static func sites() throws -> (directory: URL, url: URL) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-codable-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent("sites.mgs")
    let container = try ModelContainer(for: Site.self, configurations: ModelConfiguration(url: url))
    let context = ModelContext(container)
    for (name, place) in [
      ("HQ", Place(city: "Lisbon", zip: "1100")),
      ("Branch", Place(city: "Porto", zip: "4000", geo: Spot(lat: 41.15, lon: -8.61))),
      ("Annex", Place(city: "Lisbon", zip: "1200", floors: [3, 4, 5])),
    ] {
      let site = Site()
      site.name = name
      site.place = place
      context.insert(site)
    }
    try context.save()
    try removeCodableShapes(url)
    return (directory, url)
  }

  @Test(".schema shows the inferred shape; a field some values lack reads nil, not an error")
  func shapeAndMissingFields() throws {
    let (directory, url) = try Self.sites()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = InProcess.run(
      """
      open "\(url.path)"
      .schema Site
      count Site where place.geo == nil
      fetch Site.name, place.geo.lat where place.geo.lat > 0 OR place.floors.@count > 2 sort name
      count Site where place.geo.alt == 1
      """, path: "s", keepGoing: true)
    #expect(
      result.stdout
        == """
        entity Site {
          name: String
          place: Place  -- Codable {city: String, floors: [Number], geo: {lat: Number, lon: Number}?, zip: String}, inferred from 3 stored values
        }
        2
        name    place.geo.lat
        ------  -------------
        Annex             nil
        Branch          41.15
        (2 rows)

        """)
    #expect(
      result.stderr.contains(
        "s:5:28: error: cannot read the field 'alt' of Place.geo: none of the 1 stored Place.geo"
          + " values has it (their fields: lat, lon)"))
  }

  @Test("a field whose stored values disagree in kind is a clear error, not a guess")
  func mixedKinds() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-codable-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("badges.mgs")
    do {
      let container = try ModelContainer(
        for: Badge.self, configurations: ModelConfiguration(url: url))
      let context = ModelContext(container)
      for value in ["12", "gold"] {
        let badge = Badge()
        badge.code = Code(value)
        context.insert(badge)
      }
      try context.save()
    }
    try removeCodableShapes(url)
    let result = InProcess.run(
      "open \"\(url.path)\"\ncount Badge where code.value == 12\n.schema Badge", path: "m",
      keepGoing: true)
    #expect(
      result.stderr.contains(
        "m:2:24: error: cannot read the field 'value' of Code: its stored values hold different"
          + " kinds (Number, String)"))
    #expect(result.stdout.contains("code: Code  -- Codable {value: Number|String}"))
  }

  @Test("insert and update a Codable value with {field: value}; the Swift app decodes it")
  func insertDecodes() throws {
    let (directory, url) = try Self.sites()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = InProcess.run(
      """
      open "\(url.path)"
      insert Site { name: "Depot", place: {city: "Faro", zip: "8000", geo: {lat: 37, lon: -7.9}, floors: [1, 2]} }
      insert Site { name: "Kiosk", place: {"city": "Braga", zip: "4700", geo: nil, floors: []} }
      update Site set place = {city: "Lisboa", zip: "1100", floors: [0]} where name == "HQ"
      save
      count Site where place.city == "Faro" AND place.geo.lon < 0
      """, path: "i")
    #expect(result.stderr == "")
    #expect(result.stdout == "1 object updated\n1\n")
    let container = try ModelContainer(for: Site.self, configurations: ModelConfiguration(url: url))
    let sites = try ModelContext(container).fetch(
      FetchDescriptor<Site>(sortBy: [SortDescriptor(\.name)]))
    let places = Dictionary(uniqueKeysWithValues: sites.map { ($0.name, $0.place) })
    #expect(
      places["Depot"]
        == Place(city: "Faro", zip: "8000", geo: Spot(lat: 37, lon: -7.9), floors: [1, 2]))
    #expect(places["Kiosk"] == Place(city: "Braga", zip: "4700"))
    #expect(places["HQ"] == Place(city: "Lisboa", zip: "1100", floors: [0]))
  }

  @Test("a Codable value that does not fit the stored shape is refused with a specific error")
  func mismatches() throws {
    let (directory, url) = try Self.sites()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = InProcess.run(
      """
      open "\(url.path)"
      insert Site { name: "A", place: {city: "Faro", zip: "8000", street: "Main"} }
      insert Site { name: "B", place: {city: "Faro", zip: 8000} }
      insert Site { name: "C", place: {city: "Faro"} }
      insert Site { name: "D", place: {city: nil, zip: "1"} }
      insert Site { name: "E", place: {city: "Faro", zip: "1", geo: {lat: "north", lon: 1}} }
      insert Site { name: "F", place: "Faro" }
      insert Site { name: "G", place: {city: "Faro", zip: "1", floors: ["x"]} }
      insert Site { name: "H", place: {city: "Faro", zip: "1", geo: 3} }
      insert Site { name: "I", place: {city: "Faro", zip: "1", when: 2026-01-01} }
      insert Site { name: "J", place: {city: "Faro", zip: "1", city: "Porto"} }
      insert Site { name: "K", place: {city: "Faro", zip: "1", floors: [2026-01-01]} }
      count Site where place == {city: "Faro"}
      count Site
      """, path: "x", keepGoing: true)
    let lines = result.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
    let expected: [String] = [
      "x:2:61: error: Place has no field 'street' (the 3 stored values have: city, floors, geo,"
        + " zip)",
      "x:3:53: error: type mismatch: Place.zip is String in the stored values, not Int",
      "x:4:33: error: Place needs the fields floors, zip (every stored value has them)",
      "x:5:40: error: Place.city has a value in every stored value; it cannot be nil",
      "x:6:69: error: type mismatch: Place.geo.lat is Number in the stored values, not String",
      "x:7:33: error: place is a Codable value (Place): write it as {field: value, …}",
      "x:8:67: error: type mismatch: Place.floors[] is Number in the stored values, not String",
      "x:9:63: error: type mismatch: Place.geo is {lat: Number, lon: Number} in the stored"
        + " values, not Int",
      "x:10:58: error: Place has no field 'when' (the 3 stored values have: city, floors, geo,"
        + " zip)",
      "x:11:58: error: the field 'city' is given twice",
      "x:12:67: error: a date cannot go into a Codable value from the runner: Swift's"
        + " JSONEncoder writes a Date as seconds since 2001-01-01 by default; write that number",
      "x:13:27: error: a {field: value} literal is the value of a Codable attribute in insert"
        + " or update; it cannot be used here",
    ]
    #expect(lines.map(String.init) == expected)
    #expect(result.stdout == "3\n")
  }

  @Test("a Codable type with no stored value: inserting one says why it cannot be checked")
  func noStoredValue() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-codable-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("empty.mgs")
    do {
      let container = try ModelContainer(
        for: Site.self, configurations: ModelConfiguration(url: url))
      try container.snapshot()
    }
    try removeCodableShapes(url)
    let result = InProcess.run(
      "open \"\(url.path)\"\ninsert Site { name: \"A\", place: {city: \"Faro\", zip: \"1\"} }",
      path: "n")
    #expect(
      result.stderr.hasPrefix(
        "n:2:33: error: no stored Place value shows its fields, so the runner cannot check a new"
          + " one"))
  }

  @Test(".import takes Codable values as JSON objects or JSON text, checked like literals")
  func importCodable() throws {
    let (directory, url) = try Self.sites()
    defer { try? FileManager.default.removeItem(at: directory) }
    let json = directory.appendingPathComponent("more.json").path
    try """
    [{"name": "Depot", "place": {"city": "Faro", "zip": "8000", "floors": [1]}},
     {"name": "Kiosk", "place": "{\\"city\\": \\"Braga\\", \\"zip\\": \\"4700\\", \\"floors\\": []}"}]
    """.write(toFile: json, atomically: true, encoding: .utf8)
    let csv = directory.appendingPathComponent("more.csv").path
    try
      "name,place\nMill,\"{\"\"city\"\": \"\"Beja\"\", \"\"zip\"\": \"\"7800\"\", \"\"floors\"\": []}\"\n"
      .write(toFile: csv, atomically: true, encoding: .utf8)
    let bad = directory.appendingPathComponent("bad.csv").path
    try "name,place\nX,\"{\"\"city\"\": 3}\"\nY,not json\n".write(
      toFile: bad, atomically: true, encoding: .utf8)
    let exported = directory.appendingPathComponent("exported.json").path
    let result = InProcess.run(
      """
      open "\(url.path)"
      .import \(json) Site
      .import \(csv) Site
      save
      .mode json
      .once \(exported)
      fetch Site.name, place where name == "Mill"
      """, path: "i")
    #expect(result.stderr == "")
    #expect(result.stdout == "2 objects imported into Site\n1 object imported into Site\n")
    // What .mode json wrote imports again (as a new object of another name).
    let text = try String(contentsOfFile: exported, encoding: .utf8)
    try text.replacingOccurrences(of: "\"Mill\"", with: "\"Mill 2\"").write(
      toFile: exported, atomically: true, encoding: .utf8)
    let again = InProcess.run(
      "open \"\(url.path)\"\n.import \(exported) Site\nsave\n.import \(bad) Site", path: "a",
      keepGoing: true)
    #expect(again.stdout == "1 object imported into Site\n")
    #expect(
      again.stderr.hasPrefix(
        "a:4:1: error: \(bad):2: type mismatch: Place.city is String in the stored values, not Int")
    )
    let container = try ModelContainer(for: Site.self, configurations: ModelConfiguration(url: url))
    let sites = try ModelContext(container).fetch(FetchDescriptor<Site>())
    let places = Dictionary(uniqueKeysWithValues: sites.map { ($0.name, $0.place) })
    #expect(places["Depot"] == Place(city: "Faro", zip: "8000", floors: [1]))
    #expect(places["Kiosk"] == Place(city: "Braga", zip: "4700"))
    #expect(places["Mill"] == Place(city: "Beja", zip: "7800"))
    #expect(places["Mill 2"] == Place(city: "Beja", zip: "7800"))
  }

  @Test("a part no stored value shows the type of takes only nil or an empty list")
  func unknownKinds() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-codable-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("boards.mgs")
    do {
      let container = try ModelContainer(
        for: Board.self, configurations: ModelConfiguration(url: url))
      let context = ModelContext(container)
      let board = Board()
      board.memo = Memo(text: "a")
      context.insert(board)
      try context.save()
    }
    try removeCodableShapes(url)
    let result = InProcess.run(
      """
      open "\(url.path)"
      insert Board { memo: {text: "b", tags: []} }
      insert Board { memo: {text: "c", tags: ["x"]} }
      save
      """, path: "u", keepGoing: true)
    #expect(
      result.stderr.hasPrefix(
        "u:3:41: error: Memo.tags[] is nil or an empty list in every stored value, so its type is"
          + " unknown and the runner cannot check this value; store one from Swift first"))
    let container = try ModelContainer(
      for: Board.self, configurations: ModelConfiguration(url: url))
    let memos = try ModelContext(container).fetch(FetchDescriptor<Board>()).map(\.memo.text)
    #expect(memos.sorted() == ["a", "b"])
  }

  @Test("Tab completes a Codable value's fields, nested ones too, from the inferred shape")
  func completion() throws {
    let (directory, url) = try Self.sites()
    defer { try? FileManager.default.removeItem(at: directory) }
    let engine = ScriptEngine(output: { _ in })
    let runner = ScriptRunner(engine: engine, keepGoing: false, errorOutput: { _ in })
    #expect(runner.run("open \"\(url.path)\"", path: "c"))
    let completer = engine.completer
    #expect(completer.complete("fetch Site where pl").candidates == ["place"])
    #expect(
      completer.complete("fetch Site where place.").candidates == ["city", "floors", "geo", "zip"])
    #expect(completer.complete("fetch Site.place.geo.l").candidates == ["lat", "lon"])
    #expect(completer.complete("fetch Site where place.zip.").candidates == [])
  }

  @Test("a fraction where every stored number is whole is written, with a warning about Int")
  func wholeNumberWarning() throws {
    let (directory, url) = try Self.sites()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = InProcess.run(
      """
      open "\(url.path)"
      insert Site { name: "W", place: {city: "Faro", zip: "1", floors: [1.5]} }
      rollback
      """, path: "w")
    #expect(result.exit == 0)
    #expect(
      result.stderr.contains(
        "warning: every stored Place.floors[] is a whole number; 1.5 will not decode if the Swift"
          + " field is an Int"))
  }
}
