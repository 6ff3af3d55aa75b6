import Foundation
import Testing

@testable import ModelGraphScript

/// The dot-commands that read and write files: `.dump` and `.read` round trips, `.import`,
/// `.output` and `.once`.
@Suite("Dot-commands with files")
struct DotCommandFileTests {
  /// The `.dump` of the store `script` builds.
  private func dump(after script: String) -> ScriptResult {
    InProcess.run(script + "\n.dump", path: "s")
  }

  /// The dump of a script's store, run again, gives the same dump.
  @discardableResult
  private func expectRoundTrip(_ script: String) throws -> String {
    let first = dump(after: script)
    #expect(first.stderr == "")
    let dumped = try #require(first.stdout.range(of: "-- modelgraph .dump")).lowerBound
    let text = String(first.stdout[dumped...])
    let second = InProcess.run(text + "\n.dump", path: "dump")
    #expect(second.stderr == "")
    #expect(second.exit == 0)
    let again = try #require(second.stdout.range(of: "-- modelgraph .dump")).lowerBound
    #expect(String(second.stdout[again...]) == text)
    return text
  }

  @Test("a dump rebuilds the store: inheritance, defaults, arrays, dates, odd strings, inverses")
  func dumpRoundTrip() throws {
    let text = try expectRoundTrip(
      """
      entity Person { name: String unique; friends: [Person] inverse friends; trips: [Trip] inverse owner }
      entity Trip { name: String unique; start: Date index; budget: Double = 0; ratio: Decimal?; tags: [String]?; owner: Person?; stays: [Stay] }
      entity BusinessTrip : Trip { client: String; count: UInt; id: UUID?; site: URL? }
      entity Stay { name: String; trip: Trip inverse stays }
      entity Note { text: String; trip: Trip? }
      let $ann = insert Person { name: "Ann \\"A\\"\\t\\\\ \\r\\n é" }
      let $bob = insert Person { name: "Bob", friends: [$ann] }
      let $t = insert Trip { name: "Lisbon", start: 2026-04-02T10:30:00.250Z, budget: -2.5e-7, ratio: 0.1, tags: [], owner: $ann }
      let $b = insert BusinessTrip { name: "Rome", start: 2026-07-20, client: "ACME", count: 3, id: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", site: "https://example.org/a?b=c", owner: $ann }
      insert Stay { name: "Hotel", trip: $b }
      insert Stay { name: "Flat", trip: $b }
      insert Note { text: "", trip: $t }
      save
      delete Stay where name == "Hotel"
      """)
    // Objects come after those they point at; a pointer forward (Ann's friend Bob) is an update.
    #expect(text.contains("let $o1 = insert Stay { name: \"Flat\" }\n"))
    #expect(text.contains("update $o4 set friends = [$o5]\n"))
  }

  @Test("a dump declares Codable types and writes their values as {field: value} literals")
  func codableRoundTrip() throws {
    let text = try expectRoundTrip(
      """
      codable Place {city: String, geo: {lat: Double, lon: Double}?, floors: [Int], "odd key": Bool?}
      entity Site { name: String; place: Place; old: Place? }
      insert Site { name: "A", place: {city: "Faro", floors: [1, 2], geo: {lat: 37, lon: -7.9}} }
      insert Site { name: "B", place: {city: "Beja \\\\ \\"x\\"", floors: [], "odd key": true}, old: {city: "C", floors: [0]} }
      """)
    #expect(
      text.contains(
        #"codable Place {city: String, geo: {lat: Double, lon: Double}?, floors: [Int], "odd key": Bool?}"#
      ))
    #expect(
      text.contains(
        #"place: {city: "Faro", floors: [1, 2], geo: {lat: 37, lon: -7.9}}, old: nil"#))
  }

  @Test("an empty store dumps only its header; classes without objects dump their schema")
  func emptyDump() throws {
    #expect(
      dump(after: "").stdout
        == "-- modelgraph .dump: run it on an empty store to rebuild this one\n-- no classes\n")
    try expectRoundTrip("entity Empty { v: Int }")
  }

  @Test("a String default with quotes, backslashes and line breaks prints escaped and dumps")
  func escapedDefault() throws {
    let script = """
      entity S { s: String = "a\\"b\\\\c\\n\\td"; t: [String] = ["\\""] }
      insert S { }
      save
      """
    let text = try expectRoundTrip(script)
    #expect(text.contains("  s: String = \"a\\\"b\\\\c\\n\\td\"\n"))
    #expect(text.contains("  t: [String] = [\"\\\"\"]\n"))
    let schema = InProcess.run(
      script + "\n.schema S\nalter entity S add u: String = \"\\\"\"\n.schema S", path: "s")
    #expect(schema.stdout.contains("  s: String = \"a\\\"b\\\\c\\n\\td\"\n"))
    #expect(schema.stdout.contains("  u: String = \"\\\"\"\n"))
  }

  /// `1e400` is the script's infinity (the nearest `Double`, as in Swift), so a dump writes
  /// infinities as `1e400` and `-1e400`, and NaN as `1e400 - 1e400` (an insert takes an
  /// expression; a NaN's sign and payload are not kept). A `Data` value that is not UTF-8 text
  /// is still refused: no literal of the runner holds it.
  @Test("infinities and NaN dump as values the runner reads back, defaults included")
  func nonFinite() throws {
    let text = try expectRoundTrip(
      """
      entity N { v: Double; w: Double = 1e400; a: [Double] = []; o: Double? }
      insert N { v: 1e308 * 1e308, a: [1e400 - 1e400, -1e400, 0.5] }
      insert N { v: -1e400, w: -1e400, o: 1e400 - 1e400 }
      insert N { v: 1e400 - 1e400, w: -0.0, o: 1e400 }
      save
      """)
    #expect(text.contains("  w: Double = 1e400\n"))
    #expect(
      text.contains(
        "insert N { v: 1e400, w: 1e400, a: [1e400 - 1e400, -1e400, 0.5], o: nil }\n"))
    #expect(text.contains("insert N { v: -1e400, w: -1e400, a: [], o: 1e400 - 1e400 }\n"))
    #expect(text.contains("insert N { v: 1e400 - 1e400, w: -0.0, a: [], o: 1e400 }\n"))
    let values = InProcess.run(text + "\n.mode csv\nfetch N.v, w, o", path: "r")
    #expect(values.figures == ["v,w,o", "inf,inf,", "-inf,-inf,nan", "nan,-0.0,inf"])
  }

  @Test("CSV and JSON imported, dumped, and the dump run again: the same store")
  func importRoundTrip() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let people = directory.appendingPathComponent("people.csv")
    try "name,born\r\nAnn,1990-05-01\r\n\"Bob \"\"B\"\"\",\r\n".write(
      to: people, atomically: true, encoding: .utf8)
    let trips = directory.appendingPathComponent("trips.json")
    try
      #"[{"name": "Oslo", "owner": "Bob \"B\"", "days": 3}, {"name": "Rome", "owner": "Person/0.0"}]"#
      .write(to: trips, atomically: true, encoding: .utf8)
    let script = """
      entity Person { name: String unique; born: Date?; trips: [Trip] inverse owner }
      entity Trip { name: String; days: Int = 1; owner: Person }
      .import "\(people.path)" Person
      .import "\(trips.path)" Trip
      fetch Trip
      """
    let imported = dump(after: script)
    #expect(
      imported.stdout.hasPrefix("2 objects imported into Person\n2 objects imported into Trip\n"))
    #expect(imported.stdout.contains("Trip/0.0  Oslo     3  Person/1.0"))
    #expect(imported.stdout.contains("Trip/1.0  Rome     1  Person/0.0"))
    try expectRoundTrip(script)
  }

  @Test("a failing import record imports nothing")
  func importIsAllOrNothing() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("n.csv")
    try "v\n1\n2\nthree\n".write(to: file, atomically: true, encoding: .utf8)
    let result = InProcess.run(
      "entity N { v: Int }\n.import \(file.path) N\ncount N", path: "s", keepGoing: true)
    #expect(result.stdout == "0\n")
    #expect(result.stderr.hasPrefix("s:2:1: error: \(file.path):4: v is Int; 'three' is not one"))
  }

  @Test("relationships may name objects of the same file; a failing one takes the import back")
  func importSelfReferences() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let good = directory.appendingPathComponent("staff.csv")
    try "name,manager\nCy,Ann\nAnn,\nBob,Ann\n".write(to: good, atomically: true, encoding: .utf8)
    let bad = directory.appendingPathComponent("more.csv")
    try "name,manager\nDee,Ann\nEd,Zed\n".write(to: bad, atomically: true, encoding: .utf8)
    let result = InProcess.run(
      """
      entity Employee { name: String unique; manager: Employee? inverse reports; reports: [Employee] }
      .import \(good.path) Employee
      save
      .import \(bad.path) Employee
      begin
      rollback
      fetch Employee.name, manager.name, reports.@count sort name
      """, path: "s", keepGoing: true)
    #expect(
      result.stdout
        == """
        3 objects imported into Employee
        name  manager.name  reports.@count
        ----  ------------  --------------
        Ann   nil                        2
        Bob   Ann                        0
        Cy    Ann                        0
        (3 rows)

        """)
    #expect(
      result.stderr.hasPrefix("s:4:1: error: \(bad.path):3: no Employee has name 'Zed'"))
    #expect(!result.stderr.contains("before begin"))
  }

  @Test(".output sends results to a file until .output alone; .once for one statement")
  func output() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let all = directory.appendingPathComponent("all.txt").path
    let one = directory.appendingPathComponent("one.txt").path
    let result = InProcess.run(
      """
      entity N { v: Int }
      insert N { v: 1 }
      .output \(all)
      count N
      sum N.v
      .output
      count N
      .once '\(one)'
      max N.v
      min N.v
      .output /nonexistent-directory/x.txt
      """, path: "s")
    #expect(result.stdout == "1\n1\n")
    #expect(try String(contentsOfFile: all, encoding: .utf8) == "1\n1\n")
    #expect(try String(contentsOfFile: one, encoding: .utf8) == "1\n")
    #expect(result.stderr.hasPrefix("s:11:1: error: cannot write /nonexistent-directory/x.txt"))
  }

  @Test(".read runs a file's statements in the session; a file that reads itself is stopped")
  func read() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("part.mgscript")
    try "insert N { v: 2 }\ncount N where w > 0\n".write(
      to: file, atomically: true, encoding: .utf8)
    let result = InProcess.run(
      "entity N { v: Int }\n.read \(file.path)\ncount N", path: "s", keepGoing: true)
    #expect(result.stdout == "1\n")
    #expect(
      result.stderr
        == """
        \(file.path):2:15: error: N has no attribute or relationship 'w'
        count N where w > 0
                      ^
        s:2:1: error: .read \(file.path): a statement in it failed
        .read \(file.path)
        ^

        """)
    let binary = directory.appendingPathComponent("binary.mgscript")
    try Data([0x63, 0x6F, 0xFF]).write(to: binary)
    let unreadable = InProcess.run(".read \(binary.path)", path: "s")
    #expect(
      unreadable.stderr.hasPrefix(
        "\(binary.path):1:3: error: the script is not valid UTF-8 (byte 0xFF at offset 2)"))
    let loop = directory.appendingPathComponent("loop.mgscript")
    try ".read \(loop.path)\n".write(to: loop, atomically: true, encoding: .utf8)
    let looped = InProcess.run(".read \(loop.path)", path: "s")
    #expect(looped.stderr.contains("error: .read nests more than 16 files deep"))
    #expect(looped.exit == 1)
  }

  @Test("CSV records: quotes, doubled quotes, line breaks in quotes, empty and quoted-empty fields")
  func csvReader() throws {
    let records = try CSVReader.records(
      "a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",\n\n\"two\nlines\",\"\",z")
    #expect(
      records == [
        .init(fields: ["a", "b", "c"], line: 1),
        .init(fields: ["x, y", "say \"hi\"", nil], line: 2),
        .init(fields: ["two\nlines", "", "z"], line: 4),
      ])
    #expect(throws: CSVError(message: "a quoted field is not closed", line: 2)) {
      try CSVReader.records("a\n\"open")
    }
    #expect(throws: CSVError(message: "text after a closing quote", line: 1)) {
      try CSVReader.records("\"a\"b")
    }
  }
}
