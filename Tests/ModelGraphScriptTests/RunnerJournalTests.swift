import Foundation
import ModelGraph
import ModelGraphCore
import Testing

private final class Memo: PersistentModel {
  @Attribute var text: String
}

@Suite("The runner's files: journal saves, the lock, read-only opens")
struct RunnerJournalTests {
  /// The length of a journal's whole records.
  private func records(_ bytes: [UInt8]) throws -> Int {
    try bytes.withUnsafeBytes { try JournalReader($0, path: "journal").validLength }
  }

  private func records(_ path: String) throws -> Int {
    try records([UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
  }

  @Test("save appends to the journal and leaves the snapshot alone; the next run sees it all")
  func saveAppends() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("notes.mgs").path
    let first = InProcess.run(
      "open \"\(file)\"\nentity Note { text: String }\ninsert Note { text: \"one\" }\nsave",
      path: "first")
    #expect(first.stderr == "")
    let snapshot = try Data(contentsOf: URL(fileURLWithPath: file))
    let journal = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file + "-journal")))
    let second = InProcess.run(
      "open \"\(file)\"\ninsert Note { text: \"two\" }\nsave\ninsert Note { text: \"three\" }\nsave",
      path: "second")
    #expect(second.stderr == "")
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == snapshot)
    #expect(try records(file + "-journal") > records(journal))
    let third = InProcess.run("open \"\(file)\"\ncount Note", path: "third")
    #expect(third.stdout == "3\n" && third.stderr == "")
  }

  @Test("a class declared and saved without objects survives the next open")
  func declarationOnly() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("empty.mgs").path
    _ = InProcess.run("open \"\(file)\"\nentity Tag { name: String }\nsave", path: "declare")
    let result = InProcess.run("open \"\(file)\"\ncount Tag", path: "reopen")
    #expect(result.stdout == "0\n" && result.stderr == "")
  }

  @Test("a file a typed container holds is locked for the runner; --read-only reads it")
  func lockedAndReadOnly() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("memos.mgs")
    let container = try ModelContainer(
      for: Memo.self, configurations: ModelConfiguration(url: url))
    let context = ModelContext(container)
    let memo = Memo()
    memo.text = "held"
    context.insert(memo)
    try context.save()
    let locked = InProcess.run("open \"\(url.path)\"\ncount Memo", path: "second")
    #expect(locked.stderr.contains("second:1:1: error: cannot open \(url.path): locked"))
    #expect(try ModelContext(container).fetchCount(FetchDescriptor<Memo>()) == 1)
    guard Executable.url != nil else { return }
    let reader = try Executable.run(
      ["--read-only", url.path, "-c", "count Memo; insert Memo { text: \"no\" }; save"])
    #expect(reader.stdout == "1\n")
    #expect(reader.stderr.contains("save failed") && reader.stderr.contains("read-only"))
    #expect(reader.exit == 1)
  }
}

@Suite("The runner's snapshot to another file")
struct RunnerSnapshotCopyTests {
  @Test("snapshot over another store's files replaces the pair; the copy opens with its data")
  func snapshotOverStore() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-runner-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let first = directory.appendingPathComponent("first.mgs").path
    let second = directory.appendingPathComponent("second.mgs").path
    let old = InProcess.run(
      "open \"\(second)\"\nentity Old { v: Int }\ninsert Old { v: 1 }\nsave", path: "old")
    #expect(old.stderr == "")
    let copy = InProcess.run(
      "open \"\(first)\"\nentity Note { text: String }\ninsert Note { text: \"a\" }\nsave\n"
        + "snapshot \"\(second)\"", path: "copy")
    #expect(copy.stderr == "")
    let reopened = InProcess.run("open \"\(second)\"\ncount Note", path: "reopen")
    #expect(reopened.stdout == "1\n" && reopened.stderr == "")
  }
}
