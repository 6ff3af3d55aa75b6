import Foundation
import Testing

/// What walking through the REPL as a new user found, each fixed and kept fixed here.
@Suite("Found in a walkthrough")
struct WalkthroughTests {
  @Test(".import: an empty CSV field of an attribute with a default takes the default")
  func importDefault() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-walk-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let csv = directory.appendingPathComponent("trips.csv").path
    try "name,startDate,budget\nRome,2026-07-20,2000\nOslo,2026-08-01,\n".write(
      toFile: csv, atomically: true, encoding: .utf8)
    let bad = directory.appendingPathComponent("bad.csv").path
    try "name,startDate,budget\n,2026-07-20,2000\n".write(
      toFile: bad, atomically: true, encoding: .utf8)
    let result = InProcess.run(
      """
      entity Trip { name: String unique; startDate: Date; budget: Double = 10 }
      .import \(csv) Trip
      fetch Trip.name, budget sort name
      .import \(bad) Trip
      """, path: "i", keepGoing: true)
    #expect(
      result.stdout
        == "2 objects imported into Trip\nname  budget\n----  ------\nOslo    10.0\nRome  2000.0\n(2 rows)\n"
    )
    #expect(
      result.stderr.hasPrefix(
        "i:4:1: error: \(bad):2: name is String, not optional; the value is missing"))
  }

  @Test(
    "misspelled names and clause words suggest the closest; a bare word compared with says to quote text"
  )
  func suggestions() {
    let result = InProcess.run(
      """
      entity Trip { name: String; budget: Double }
      fetch Trip wher name == "Rome"
      fetch Trip where nme == "Rome"
      fetch Trip where name = Rome
      insert Trip { name: "A", budjet: 3 }
      fetch Trip where ab == 1
      """, path: "s", keepGoing: true)
    let errors = result.stderr.split(separator: "\n").filter { $0.contains(": error: ") }.map(
      String.init)
    let expected: [String] = [
      "s:2:12: error: expected the end of the statement, found 'wher' (did you mean 'where'?)",
      "s:3:18: error: Trip has no attribute or relationship 'nme' (did you mean 'name'?)",
      "s:4:25: error: Trip has no attribute or relationship 'Rome'; text is written in quotes:"
        + " \"Rome\"",
      "s:5:26: error: Trip has no attribute or relationship 'budjet' (did you mean 'budget'?)",
      "s:6:18: error: Trip has no attribute or relationship 'ab'",
    ]
    #expect(errors == expected)
  }

  @Test("a misspelled dot-command suggests the closest; .read says why a file cannot be read")
  func dotCommands() {
    let result = InProcess.run(
      ".tabels\n.read /nonexistent-modelgraph/x.mgscript\n.read /", path: "d", keepGoing: true)
    let errors = result.stderr.split(separator: "\n").filter { $0.contains(": error: ") }.map(
      String.init)
    #expect(errors.count == 3)
    #expect(
      errors.first?.hasPrefix(
        "d:1:1: error: unknown dot-command '.tabels' (did you mean '.tables'?); expected .schema,")
        == true)
    #expect(
      errors.dropFirst().first
        == "d:2:1: error: cannot read /nonexistent-modelgraph/x.mgscript: no such file")
    #expect(errors.last == "d:3:1: error: cannot read /: it is a directory")
  }

  @Test("assigning a field or a related object's property says to assign the whole value")
  func pathAssignment() {
    let result = InProcess.run(
      """
      entity Trip { name: String }
      update Trip set name.first = "x"
      insert Trip { name.first: "x" }
      """, path: "p", keepGoing: true)
    let errors = result.stderr.split(separator: "\n").filter { $0.contains(": error: ") }.map(
      String.init)
    let message =
      "error: only a whole property is assigned, not 'name.…': give a Codable value whole"
      + " (name: {field: value, …}), and change a related object with its own update"
    #expect(errors == ["p:2:21: \(message)", "p:3:19: \(message)"])
  }
}
