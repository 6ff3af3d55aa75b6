import Foundation
import ModelGraphScript
import Testing

/// A file that starts with a UTF-8 byte order mark (as spreadsheet programs write CSV): a JSON
/// array behind one was read as CSV whose header was the whole array ("0 objects imported"),
/// and a CSV header's first name carried the mark ("A has no attribute or relationship 'n'").
@Suite("Import after a byte order mark")
struct ImportByteOrderMarkTests {
  @Test("CSV and JSON files that start with a byte order mark import as without one")
  func byteOrderMark() throws {
    for text in ["n,s\n1,a\n2,b\n", #"[{"n": 1, "s": "a"}, {"n": 2, "s": "b"}]"#] {
      let file = FileManager.default.temporaryDirectory.appendingPathComponent(
        "modelgraph-bom-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: file) }
      try Data([0xEF, 0xBB, 0xBF] + Array(text.utf8)).write(to: file)
      let result = InProcess.run(
        """
        entity A { n: Int; s: String }
        .import "\(file.path)" A
        .mode csv
        fetch A.n, s sort n
        """, path: "t.mgscript")
      #expect(result.exit == 0, "\(result.stderr)")
      #expect(result.figures == ["2 objects imported into A", "n,s", "1,a", "2,b"], "\(text)")
    }
  }
}
