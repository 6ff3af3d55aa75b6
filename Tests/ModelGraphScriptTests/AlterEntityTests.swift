import Foundation
import Testing

/// `alter entity` on an open file: `save` persists the new schema with the data.
@Suite("alter entity on a file")
struct AlterEntityTests {
  @Test("an altered class is unsaved until save; after save the file opens with the new schema")
  func persisted() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-alter-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("trips.mgs").path
    let setup = InProcess.run(
      """
      open "\(file)"
      entity Trip { name: String unique; budget: Double }
      insert Trip { name: "Lisbon", budget: 10 }
      save
      """, path: "setup")
    #expect(setup.exit == 0)
    let unsaved = InProcess.run(
      "open \"\(file)\"\nalter entity Trip rename budget to cost", path: "unsaved")
    #expect(
      unsaved.stderr
        == "modelgraph: error: the script ended with unsaved changes (the altered schema of Trip)"
        + " to \(file); end it with save\n")
    #expect(unsaved.exit == 1)
    let saved = InProcess.run(
      "open \"\(file)\"\nalter entity Trip rename budget to cost\nalter entity Trip add days: Int = 2"
        + "\nsave",
      path: "saved")
    #expect(saved == ScriptResult(stdout: "", stderr: "", exit: 0))
    let reopened = InProcess.run("open \"\(file)\"\n.schema\nfetch Trip", path: "reopened")
    #expect(
      reopened.stdout
        == """
        entity Trip {
          name: String unique
          cost: Double
          days: Int
        }
        id        name    cost  days
        --------  ------  ----  ----
        Trip/0.0  Lisbon  10.0     2
        (1 object)

        """)
  }
}
