import Foundation
import Testing

/// `alter entity` and files: a loaded file is altered in memory and written with `snapshot`;
/// an open file is altered by the next `save`, which writes the store as its new snapshot.
@Suite("alter entity and files")
struct AlterEntityTests {
  @Test("load, alter, snapshot: the new file has the new schema and the data")
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
      """, path: "setup")
    #expect(setup == ScriptResult(stdout: "", stderr: "", exit: 0))
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

  /// A temporary directory removed by the caller, and a file path in it.
  private static func scratch(_ name: String) throws -> (URL, String) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-alter-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return (directory, directory.appendingPathComponent(name).path)
  }

  @Test(
    "alter on an open file: save writes the new schema; reopened, it has the data and takes saves")
  func alterOpenFile() throws {
    let (directory, file) = try Self.scratch("trips.mgs")
    defer { try? FileManager.default.removeItem(at: directory) }
    let first = InProcess.run(
      """
      open "\(file)"
      entity Trip { name: String unique; budget: Double; note: String? }
      entity Stay { city: String }
      insert Trip { name: "Lisbon", budget: 10 }
      insert Stay { city: "Porto" }
      save
      alter entity Trip rename budget to cost
      alter entity Trip add days: Int = 2
      alter entity Trip drop note
      insert Trip { name: "Rome", cost: 5, days: 4 }
      save
      insert Trip { name: "Oslo", cost: 7, days: 1 }
      insert Stay { city: "Faro" }
      save
      """, path: "first")
    #expect(first == ScriptResult(stdout: "", stderr: "", exit: 0))
    let second = InProcess.run(
      """
      open "\(file)"
      .schema Trip
      fetch Trip.name, cost, days sort name
      update Trip set days = 9 where name == "Rome"
      save
      """, path: "second")
    #expect(
      second
        == ScriptResult(
          stdout: """
            entity Trip {
              name: String unique
              cost: Double
              days: Int = 2
            }
            name    cost  days
            ------  ----  ----
            Lisbon  10.0     2
            Oslo     7.0     1
            Rome     5.0     4
            (3 rows)
            1 object updated

            """, stderr: "", exit: 0))
    let third = InProcess.run(
      "open \"\(file)\"\nfetch Trip.name, days where days > 5\ncount Stay", path: "third")
    #expect(third.stdout == "name  days\n----  ----\nRome     9\n(1 row)\n2\n")
    #expect(third.stderr == "")
  }

  @Test("alter on an open file without save: the file keeps its schema, and quitting says so")
  func alterNotSaved() throws {
    let (directory, file) = try Self.scratch("notes.mgs")
    defer { try? FileManager.default.removeItem(at: directory) }
    let setup = InProcess.run(
      "open \"\(file)\"\nentity Note { text: String }\ninsert Note { text: \"a\" }\nsave",
      path: "setup")
    #expect(setup.exit == 0)
    let altered = InProcess.run(
      "open \"\(file)\"\nalter entity Note add stars: Int = 1", path: "altered")
    #expect(altered.exit == 1)
    #expect(altered.stderr.contains("Note"))
    let reopened = InProcess.run("open \"\(file)\"\n.schema Note\ncount Note", path: "reopened")
    #expect(reopened.stdout == "entity Note {\n  text: String\n}\n1\n")
  }

  @Test("alter, then snapshot to another file: the open file still lacks the change until save")
  func alterSnapshotElsewhere() throws {
    let (directory, file) = try Self.scratch("notes.mgs")
    defer { try? FileManager.default.removeItem(at: directory) }
    let copy = directory.appendingPathComponent("copy.mgs").path
    let result = InProcess.run(
      """
      open "\(file)"
      entity Note { text: String }
      insert Note { text: "a" }
      save
      alter entity Note rename text to body
      snapshot "\(copy)"
      """, path: "s")
    #expect(result.exit == 1, "the open file's schema is still unsaved")
    #expect(result.stderr.contains("Note"))
    let reopened = InProcess.run("open \"\(copy)\"\n.schema Note", path: "r")
    #expect(reopened.stdout == "entity Note {\n  body: String\n}\n")
  }

  @Test("alter on a file opened read-only: save is refused and the file keeps its schema")
  func alterReadOnly() throws {
    let (directory, file) = try Self.scratch("notes.mgs")
    defer { try? FileManager.default.removeItem(at: directory) }
    let setup = InProcess.run(
      "open \"\(file)\"\nentity Note { text: String }\ninsert Note { text: \"a\" }\nsave",
      path: "setup")
    #expect(setup.exit == 0)
    let reader = try Executable.run(
      ["--read-only", file, "-c", "alter entity Note add stars: Int = 1; save"])
    #expect(reader.exit == 1)
    #expect(reader.stderr.contains("save failed, nothing was saved: \(file) was opened read-only"))
    let reopened = InProcess.run("open \"\(file)\"\n.schema Note\ncount Note", path: "r")
    #expect(reopened.stdout == "entity Note {\n  text: String\n}\n1\n")
  }

  @Test("alter, then snapshot of the open file itself: it takes the new schema, saves follow it")
  func alterSnapshotOwnFile() throws {
    let (directory, file) = try Self.scratch("notes.mgs")
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = InProcess.run(
      """
      open "\(file)"
      entity Note { text: String }
      insert Note { text: "a" }
      save
      alter entity Note add stars: Int = 1
      snapshot
      insert Note { text: "b", stars: 5 }
      save
      """, path: "o")
    #expect(result == ScriptResult(stdout: "", stderr: "", exit: 0))
    let reopened = InProcess.run(
      "open \"\(file)\"\nfetch Note.text, stars sort text", path: "r")
    #expect(reopened.stdout == "text  stars\n----  -----\na         1\nb         5\n(2 rows)\n")
    #expect(reopened.stderr == "")
  }
}
