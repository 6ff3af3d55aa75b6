import Foundation
import ModelGraphCore
import Testing

@testable import ModelGraphScript

@Suite("The runner's journal checkpoints")
struct RunnerCheckpointTests {
  @Test("a journal past the threshold is checkpointed in the background; nothing is lost")
  func automaticCheckpoint() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-runner-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("notes.mgs").path
    var stdout = ""
    var stderr = ""
    do {
      let engine = ScriptEngine(output: { stdout += $0 })
      engine.checkpointThreshold = 2048
      let runner = ScriptRunner(engine: engine, keepGoing: false, errorOutput: { stderr += $0 })
      var script = "open \"\(file)\"\nentity Note { text: String }\n"
      for index in 0..<60 { script += "insert Note { text: \"note \(index)\" }\nsave\n" }
      #expect(runner.run(script, path: "many"))
      // The save that passes the threshold queues the checkpoint before it returns: wait for
      // the queue to run dry rather than for a guessed time. A checkpoint still running when
      // the last save returned may keep records past the threshold and queue one more behind
      // this wait; that one starts after every save, keeps nothing, and asks for no other.
      engine.openedFile!.checkpoints.sync {}
      engine.openedFile!.checkpoints.sync {}
      #expect(engine.openedFile!.journal.size < 2048 + 1024)
    }
    #expect(stderr == "")
    let snapshot = try #require(try SnapshotFile(path: file).load())
    #expect(snapshot.number > 0, "a checkpoint wrote the snapshot")
    let reopened = InProcess.run("open \"\(file)\"\ncount Note", path: "reopen")
    #expect(reopened.stdout == "60\n" && reopened.stderr == "")
  }
}
