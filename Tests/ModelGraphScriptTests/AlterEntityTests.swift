import Foundation
import Testing

/// `alter entity` and files: a loaded file is altered in memory and written with `snapshot`;
/// the open file itself is refused until saves can carry a schema change.
@Suite("alter entity and files")
struct AlterEntityTests {
  @Test("load, alter, snapshot: the new file has the new schema and the data; open is refused")
  func loadAlterSnapshot() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-alter-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("trips.mgs").path
    let altered = directory.appendingPathComponent("altered.mgs").path
    let setup = InProcess.run(
      """
      open "\(file)"
      entity Trip { name: String unique; budget: Double }
      insert Trip { name: "Lisbon", budget: 10 }
      save
      alter entity Trip rename budget to cost
      """, path: "setup")
    #expect(
      setup.stderr.hasPrefix(
        "setup:5:14: error: alter entity works on an in-memory store for now, not on the open"
          + " file \(file)"))
    let copy = InProcess.run(
      """
      load "\(file)"
      alter entity Trip rename budget to cost
      alter entity Trip add days: Int = 2
      snapshot "\(altered)"
      """, path: "copy")
    #expect(copy == ScriptResult(stdout: "", stderr: "", exit: 0))
    // The added attribute's default is part of the file's schema (format version 3).
    let reopened = InProcess.run("open \"\(altered)\"\n.schema\nfetch Trip", path: "reopened")
    #expect(
      reopened.stdout
        == """
        entity Trip {
          name: String unique
          cost: Double
          days: Int = 2
        }
        id        name    cost  days
        --------  ------  ----  ----
        Trip/0.0  Lisbon  10.0     2
        (1 object)

        """)
  }
}
