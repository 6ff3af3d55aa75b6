import Foundation
import Testing

@testable import ModelGraphCore

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Snapshot durability on a simulated disk")
struct SnapshotDurabilityTests {
  let old: StoreVersion
  let new: StoreVersion

  init() throws {
    old = try SnapshotFixture.makeStore(trips: 3, seed: 0).version
    new = try SnapshotFixture.makeStore(trips: 5, seed: 100).version
  }

  @Test("a crash at every I/O step, with and without power loss, leaves the old or new file")
  func crashMatrix() throws {
    let (problems, steps) = try CrashMatrix(old: old, new: new).run()
    #expect(steps == 6, "create, write, fsync, close, rename, fsync directory")
    #expect(problems.isEmpty, "\(problems)")
  }

  @Test("the first save of a store: a crash leaves no file or the new one, never a torn one")
  func crashMatrixWithoutOldFile() throws {
    let (problems, _) = try CrashMatrix(old: nil, new: new).run()
    #expect(problems.isEmpty, "\(problems)")
  }

  @Test("crashes during a save made of many short writes leave the old or new file")
  func crashMatrixWithShortWrites() throws {
    var matrix = CrashMatrix(old: old, new: new)
    matrix.wrap = { disk in
      disk.maximumWriteSize = 512
      return disk
    }
    let (problems, steps) = try matrix.run()
    #expect(steps > 8, "the file takes several writes")
    #expect(problems.isEmpty, "\(problems)")
  }

  @Test("negative control: a writer that skips the directory fsync loses acknowledged saves")
  func skippingDirectorySyncIsDetected() throws {
    var matrix = CrashMatrix(old: old, new: new)
    matrix.wrap = { SkippingIO(base: $0, skipped: [.syncDirectory]) }
    let (problems, _) = try matrix.run()
    #expect(problems.contains { $0.kind == .acknowledgedSaveLost && $0.powerLoss })
    #expect(!problems.contains { !$0.powerLoss }, "without a power loss the page cache keeps it")
  }

  @Test("negative control: a writer that skips the file fsync leaves torn files on power loss")
  func skippingFileSyncIsDetected() throws {
    var matrix = CrashMatrix(old: old, new: new)
    matrix.wrap = { SkippingIO(base: $0, skipped: [.sync]) }
    let (problems, _) = try matrix.run()
    #expect(problems.contains { $0.kind == .torn && $0.powerLoss })
  }

  @Test("negative control: a writer that rewrites the file in place tears it on a crash")
  func inPlaceWriterIsDetected() throws {
    var matrix = CrashMatrix(old: old, new: new)
    matrix.save = { file, version in
      let io = file.io
      if io.kind(of: file.path) != nil { try io.remove(file.path) }
      let descriptor = try io.create(file.path)
      let bytes = SnapshotWriter.encode(version)
      _ = try bytes.withUnsafeBytes { try io.write(descriptor, $0) }
      try io.sync(descriptor)
      try io.close(descriptor)
      try io.syncDirectory(file.directory)
    }
    let (problems, _) = try matrix.run()
    #expect(problems.contains { $0.kind == .torn && !$0.powerLoss })
    #expect(problems.contains { $0.kind == .oldSnapshotLost && !$0.powerLoss })
  }

  /// A disk holding the old snapshot durably, and the file on it.
  private func diskWithOldFile() throws -> (SimFS, SnapshotFile) {
    let disk = SimFS()
    let file = SnapshotFile(path: CrashMatrix.path, io: disk)
    try file.save(old)
    return (disk, file)
  }

  private func expectOldFileOnly(_ disk: SimFS, _ file: SnapshotFile) throws {
    #expect(disk.names(in: "/sim") == ["store.mgs"], "no temporary file is left")
    let loaded = try #require(try file.load())
    #expect(SnapshotWriter.encode(loaded) == SnapshotWriter.encode(old))
    disk.restart(powerLoss: true)
    let afterPowerLoss = try #require(try file.load())
    #expect(SnapshotWriter.encode(afterPowerLoss) == SnapshotWriter.encode(old))
  }

  @Test(
    "an error in any step before the rename is reported by name and leaves the old file",
    arguments: [
      (SimFS.Operation.create, ENOSPC, "create"), (.write, EIO, "write"),
      (.sync, EIO, "fsync"), (.close, EIO, "close"), (.rename, EXDEV, "rename"),
    ])
  func injectedErrors(operation: SimFS.Operation, code: Int32, section: String) throws {
    let (disk, file) = try diskWithOldFile()
    disk.inject(operation, errno: code)
    let error = try #require(throws: SnapshotError.self) { try file.save(new) }
    #expect(error.code == .io)
    #expect(error.section == section)
    #expect(error.message.contains("errno \(code)"))
    #expect(error.path.hasPrefix("/sim/"), "the error names a file, not a descriptor")
    try expectOldFileOnly(disk, file)
  }

  @Test("a full disk part way through the file gives ENOSPC and leaves the old file")
  func diskFull() throws {
    let (disk, file) = try diskWithOldFile()
    let size = SnapshotWriter.encode(old).count
    disk.capacity = size + SnapshotWriter.encode(new).count / 2
    disk.maximumWriteSize = 256
    let error = try #require(throws: SnapshotError.self) { try file.save(new) }
    #expect(error.code == .io && error.section == "write")
    #expect(error.message.contains("errno \(ENOSPC)"))
    #expect(disk.callCount(.write) > 2, "the save wrote part of the file first")
    try expectOldFileOnly(disk, file)
  }

  @Test("an EIO from the directory fsync is reported; the file then holds the new snapshot")
  func directorySyncError() throws {
    let (disk, file) = try diskWithOldFile()
    disk.inject(.syncDirectory, errno: EIO)
    let error = try #require(throws: SnapshotError.self) { try file.save(new) }
    #expect(error.code == .io && error.section == "fsync directory")
    #expect(disk.names(in: "/sim") == ["store.mgs"])
    let loaded = try #require(try file.load())
    #expect(SnapshotWriter.encode(loaded) == SnapshotWriter.encode(new))
  }

  @Test("short writes are continued until the whole file is written")
  func shortWrites() throws {
    let (disk, file) = try diskWithOldFile()
    disk.maximumWriteSize = 7
    let before = disk.callCount(.write)
    let size = try file.save(new)
    #expect(disk.callCount(.write) - before == (size + 6) / 7)
    let loaded = try #require(try file.load())
    #expect(SnapshotWriter.encode(loaded) == SnapshotWriter.encode(new))
  }

  @Test("temporary files a crash left are removed on the next open, other files are kept")
  func orphansRemoved() throws {
    let (disk, file) = try diskWithOldFile()
    disk.crashStep = disk.steps + 3
    #expect(throws: SimFS.Crash.self) { try file.save(new) }
    disk.restart(powerLoss: false)
    disk.place([1, 2, 3], at: "/sim/.other.mgs.tmp-1-1")
    disk.place([4], at: "/sim/notes.txt")
    #expect(disk.names(in: "/sim").count == 4)
    file.removeOrphans()
    #expect(disk.names(in: "/sim") == [".other.mgs.tmp-1-1", "notes.txt", "store.mgs"])
  }
}
