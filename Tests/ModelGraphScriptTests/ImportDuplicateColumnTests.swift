import Foundation
import ModelGraphScript
import Testing

/// A property given twice in one record (a CSV header `name,n,n`, or `parent` and
/// `parent.name`) was imported with the last value winning, without a word: now it is an
/// error naming both columns, and nothing is imported.
@Suite("Import of a property given twice")
struct ImportDuplicateColumnTests {
  /// Runs `.import` of `text` into `P` (after one saved `P` named `a`), then counts the `P`s.
  private func importing(_ text: String) throws -> (exit: Int32, stderr: String, count: String?) {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-dup-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: file) }
    try Data(text.utf8).write(to: file)
    let result = InProcess.run(
      """
      entity P { name: String unique; n: Int = 0; parent: P? }
      insert P { name: "a" }
      save
      .import "\(file.path)" P
      .mode csv
      .headers off
      count P
      """, path: "t.mgscript", keepGoing: true)
    return (result.exit, result.stderr, result.figures.last)
  }

  @Test("a CSV header that names a property twice is refused")
  func csvHeader() throws {
    let twice = try importing("name,n,n\nb,1,2\n")
    #expect(twice.exit == 1)
    #expect(twice.stderr.contains("columns 2 ('n') and 3 ('n') of the header both give n"))
    #expect(twice.count == "1")
    let spelled = try importing("name,parent,parent.name\nb,a,a\n")
    #expect(spelled.stderr.contains("columns 2 ('parent') and 3 ('parent.name') of the header"))
    #expect(spelled.count == "1")
  }

  @Test("a JSON object that gives a relationship by identifier and by attribute is refused")
  func jsonObject() throws {
    let result = try importing(#"[{"name": "b", "parent": "a", "parent.name": "a"}]"#)
    #expect(result.exit == 1)
    #expect(
      result.stderr.contains("object 1: parent is given twice, as 'parent' and as 'parent.name'"),
      "\(result.stderr)")
    #expect(result.count == "1")
  }

  @Test("a record with one field says 1 field")
  func oneField() throws {
    let result = try importing("name,n\nb\n")
    #expect(result.stderr.contains(":2: 1 field, but the header has 2"), "\(result.stderr)")
  }
}
