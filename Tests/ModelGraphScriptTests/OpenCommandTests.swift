import Foundation
import ModelGraph
import ModelGraphScript
import Testing

/// A class a typed process holds a file with.
private final class Note: PersistentModel {
  @Attribute var text: String
}

@Suite(".open FILE and `modelgraph new.mgs`")
struct OpenCommandTests {
  @Test(".open switches to another file, creating a missing one; saves go to the new file")
  func switchesFiles() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let first = directory.appendingPathComponent("first.mgs").path
    let second = directory.appendingPathComponent("second.mgs").path
    let result = InProcess.run(
      """
      .open \(first)
      entity Item { name: String }
      insert Item { name: "one" }
      save
      .open "\(second)"
      .tables
      entity Item { name: String }
      insert Item { name: "two" }
      insert Item { name: "three" }
      save
      .open \(first)
      count Item
      """, path: "open")
    #expect(result.stderr == "")
    #expect(result.stdout == "1\n")
    #expect(FileManager.default.fileExists(atPath: second))
    let check = InProcess.run("open \"\(second)\"\ncount Item", path: "check")
    #expect(check.stdout == "2\n")
  }

  @Test(".open refuses with unsaved changes and keeps the file and the changes")
  func refusesUnsaved() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let first = directory.appendingPathComponent("first.mgs").path
    let other = directory.appendingPathComponent("other.mgs").path
    let result = InProcess.run(
      """
      .open \(first)
      entity Item { name: String }
      insert Item { name: "pending" }
      .open \(other)
      save
      count Item
      """, path: "unsaved", keepGoing: true)
    #expect(
      result.stderr.contains(
        "unsaved:4:1: error: there are unsaved changes; save or rollback before opening a file"))
    #expect(result.stdout == "1\n")
    #expect(!FileManager.default.fileExists(atPath: other))
  }

  @Test(".open takes the file's lock: a file a typed container holds is refused")
  func takesTheLock() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("notes.mgs")
    let container = try ModelContainer(for: Note.self, configurations: ModelConfiguration(url: url))
    let context = ModelContext(container)
    let note = Note()
    note.text = "held"
    context.insert(note)
    try context.save()
    let result = InProcess.run(".open \(url.path)", path: "second")
    #expect(result.stderr.contains("second:1:1: error: cannot open \(url.path): locked"))
    let usage = InProcess.run(".open", path: "usage")
    #expect(usage.stderr.contains("usage:1:1: error: .open takes one file name"))
  }

  @Test("`modelgraph new.mgs` creates the file, as sqlite3 does; --read-only does not")
  func commandLineCreates() throws {
    guard Executable.url != nil else { return }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("new.mgs").path
    let created = try Executable.run(
      [path, "-c", "entity Item { name: String }; insert Item { name: \"a\" }; save"])
    #expect(created.stderr == "" && created.exit == 0)
    #expect(FileManager.default.fileExists(atPath: path))
    let reopened = try Executable.run([path, "-c", "count Item"])
    #expect(reopened.stdout == "1\n" && reopened.exit == 0)
    let missing = directory.appendingPathComponent("missing.mgs").path
    let readOnly = try Executable.run(["--read-only", missing, "-c", ".tables"])
    #expect(readOnly.exit == 64)
    #expect(readOnly.stderr.contains("no snapshot file at \(missing) to read"))
    #expect(!FileManager.default.fileExists(atPath: missing))
  }
}
