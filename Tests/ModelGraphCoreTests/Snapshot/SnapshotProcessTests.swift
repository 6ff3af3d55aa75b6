import Foundation
import Testing

@testable import ModelGraphCore

#if canImport(Glibc)
  import Glibc
#endif

/// Tests against real files and other processes (the `SnapshotCrashWriter` executable, which
/// `swift build` and `swift test` build next to the test bundle).
@Suite("Snapshot files across processes")
struct SnapshotProcessTests {
  /// A fresh temporary directory, removed by `cleanUp`.
  private func scratch() throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.path
  }

  /// The crash writer executable, found beside the test bundle's executable.
  private func crashWriter() throws -> URL {
    let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = directory.appendingPathComponent("SnapshotCrashWriter")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory = directory.deletingLastPathComponent()
    }
    throw SnapshotError(
      .io, path: executable, section: "test setup",
      message: "SnapshotCrashWriter not found beside the tests; run `swift build` first")
  }

  @Test("two opens in one process conflict: flock locks belong to open file descriptions")
  func lockInProcess() throws {
    let directory = try scratch()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let io = SystemFileIO()
    let path = directory + "/store.mgs.lock"
    let first = try io.lock(path)
    let error = try #require(throws: SnapshotError.self) { _ = try io.lock(path) }
    #expect(error.code == .locked && error.path == path && error.section == "lock")
    #expect(error.message.contains("in use"))
    io.unlock(first)
    io.unlock(try io.lock(path))
  }

  @Test("a second process gets a clear locked error while another holds the store")
  func lockAcrossProcesses() throws {
    let directory = try scratch()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/store.mgs"
    let process = Process()
    process.executableURL = try crashWriter()
    process.arguments = ["hold", path]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    let line = output.fileHandleForReading.readData(ofLength: 7)
    #expect(String(decoding: line, as: UTF8.self) == "locked\n")
    let error = try #require(throws: SnapshotError.self) {
      _ = try SystemFileIO().lock(path + ".lock")
    }
    #expect(error.code == .locked && error.message.contains("another process"))
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    SystemFileIO().unlock(try SystemFileIO().lock(path + ".lock"))
  }

  /// The generations of the entries a crash writer's file holds, sorted.
  private func generations(in path: String) throws -> [Int64] {
    guard let version = try SnapshotFile(path: path).load() else { return [] }
    let table = version.tables[0]
    var values: [Int64] = []
    table.forEachLiveRow { values.append(table.column(0, as: Int64.self)[$0]) }
    return values.sorted()
  }

  @Test("kill -9 at random times: the file loads and holds the last acknowledged save or the next")
  func killLoop() throws {
    let directory = try scratch()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/store.mgs"
    let writer = try crashWriter()
    var random = QueryRandom(seed: 9)
    var generation: Int64 = 0
    var acknowledgedTotal = 0
    var orphansSeen = 0
    for iteration in 0..<24 {
      let process = Process()
      process.executableURL = writer
      process.arguments = ["save", path, "2000"]
      let output = Pipe()
      let errors = Pipe()
      process.standardOutput = output
      process.standardError = errors
      try process.run()
      // Wait for the first acknowledgement (however slow the machine is), then kill at a
      // random moment of the following saves.
      var data = output.fileHandleForReading.availableData
      usleep(UInt32.random(in: 0...60_000, using: &random))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      data += output.fileHandleForReading.readDataToEndOfFile()
      let printed = String(decoding: data, as: UTF8.self)
      let complaint = String(
        decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      #expect(process.terminationReason == .uncaughtSignal, "\(iteration): \(complaint)")
      let acks = printed.split(separator: "\n").compactMap { Int64($0.dropFirst(4)) }
      #expect(acks == Array((generation + 1)..<(generation + 1 + Int64(acks.count))))
      let lastAcknowledged = acks.last ?? generation
      acknowledgedTotal += acks.count
      orphansSeen += try FileManager.default.contentsOfDirectory(atPath: directory)
        .filter { $0.hasPrefix(".store.mgs.tmp-") }.count
      let stored = try generations(in: path)
      let count = Int64(stored.count)
      #expect(stored == Array(stride(from: 1, through: count, by: 1)), "\(iteration)")
      #expect(
        count == lastAcknowledged || count == lastAcknowledged + 1,
        "\(iteration): the file holds \(count), the last acknowledgement was \(lastAcknowledged)")
      generation = count
    }
    #expect(acknowledgedTotal >= 24, "every writer acknowledged a save before its kill")
    SnapshotFile(path: path).removeOrphans()
    let left = try FileManager.default.contentsOfDirectory(atPath: directory)
    #expect(left.sorted() == ["store.mgs", "store.mgs.lock"], "orphans seen: \(orphansSeen)")
  }

  @Test("kill -9 during journal saves and checkpoints: every acknowledged save comes back")
  func journalKillLoop() throws {
    let directory = try scratch()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/store.mgs"
    let writer = try crashWriter()
    var random = QueryRandom(seed: 14)
    var generation: Int64 = 0
    var acknowledgedTotal = 0
    var torn = 0
    for iteration in 0..<24 {
      let process = Process()
      process.executableURL = writer
      process.arguments = ["journal", path, "3000", "20"]
      let output = Pipe()
      let errors = Pipe()
      process.standardOutput = output
      process.standardError = errors
      try process.run()
      var data = output.fileHandleForReading.availableData
      usleep(UInt32.random(in: 0...40_000, using: &random))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      data += output.fileHandleForReading.readDataToEndOfFile()
      let printed = String(decoding: data, as: UTF8.self)
      let complaint = String(
        decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      #expect(process.terminationReason == .uncaughtSignal, "\(iteration): \(complaint)")
      let acks = printed.split(separator: "\n").compactMap { Int64($0.dropFirst(4)) }
      #expect(acks == Array((generation + 1)..<(generation + 1 + Int64(acks.count))))
      let lastAcknowledged = acks.last ?? generation
      acknowledgedTotal += acks.count
      let recovered = try StoreFiles(path: path).recover()
      torn += recovered.report.droppedBytes > 0 ? 1 : 0
      var stored: [Int64] = []
      if let table = recovered.version?.tables.first {
        table.forEachLiveRow { stored.append(table.column(0, as: Int64.self)[$0]) }
      }
      stored.sort()
      let count = Int64(stored.count)
      #expect(stored == Array(stride(from: 1, through: count, by: 1)), "\(iteration)")
      #expect(
        count == lastAcknowledged || count == lastAcknowledged + 1,
        "\(iteration): the files hold \(count), the last acknowledgement was \(lastAcknowledged)")
      generation = count
    }
    #expect(acknowledgedTotal >= 24, "every writer acknowledged a save before its kill")
    print("journal kill loop: \(acknowledgedTotal) acknowledged saves, \(torn) torn tails cut")
  }

  @Test(
    "real system-call failures in journal saves: the writer reports them, nothing acknowledged is lost",
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"),
      "strace is not installed (.ci/run installs it)"),
    arguments: [
      ("pwrite64", "ENOSPC", 4, "errno 28"), ("pwrite64", "EIO", 7, "errno 5"),
      ("fdatasync", "EIO", 3, "errno 5"),
    ])
  func injectedJournalErrors(call: String, error: String, when: Int, errno: String) throws {
    let directory = try scratch()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/store.mgs"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/strace")
    process.arguments = [
      "-f", "-o", "/dev/null", "-e", "trace=\(call)", "-e",
      "inject=\(call):error=\(error):when=\(when)", try crashWriter().path, "journal", path, "100",
      "1000", "20",
    ]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 2, "the writer reports the failure: \(message)")
    #expect(message.contains(errno), "\(message)")
    let acks = Int64(printed.split(separator: "\n").count)
    #expect(acks < 20)
    let recovered = try StoreFiles(path: path).recover()
    var stored: [Int64] = []
    if let table = recovered.version?.tables.first {
      table.forEachLiveRow { stored.append(table.column(0, as: Int64.self)[$0]) }
    }
    let count = Int64(stored.count)
    #expect(stored.sorted() == Array(stride(from: 1, through: count, by: 1)))
    // An append that failed published nothing; a failed sync leaves a record that may be read.
    #expect(count == acks || (call == "fdatasync" && count == acks + 1), "\(count) vs \(acks)")
  }

  /// Runs the crash writer once (one save) under `prefix` (an strace command line, or none);
  /// returns its exit status and standard error.
  private func runOnce(_ path: String, prefix: [String] = []) throws -> (Int32, String) {
    let process = Process()
    let writer = try crashWriter().path
    process.executableURL = URL(fileURLWithPath: prefix.isEmpty ? writer : prefix[0])
    process.arguments =
      Array(prefix.dropFirst()) + (prefix.isEmpty ? [] : [writer])
      + ["once", path]
    let errors = Pipe()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errors
    try process.run()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
  }

  @Test(
    "real system-call failures (strace fault injection) are reported and keep the old file",
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"),
      "strace is not installed (.ci/run installs it)"),
    arguments: [
      ("write", "ENOSPC", 1, ": write:", "errno 28"),
      ("fsync", "EIO", 1, ": fsync:", "errno 5"),
      ("rename", "EXDEV", 1, ": rename:", "errno 18"),
      ("fsync", "EIO", 2, ": fsync directory:", "errno 5"),
    ])
  func injectedSystemCallErrors(
    call: String, error: String, when: Int, section: String, errno: String
  ) throws {
    let directory = try scratch()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/store.mgs"
    let (created, complaint) = try runOnce(path)
    #expect(created == 0, "\(complaint)")
    let strace = [
      "/usr/bin/strace", "-f", "-o", "/dev/null", "-e", "trace=\(call)",
      "-e", "inject=\(call):error=\(error):when=\(when)",
    ]
    let (status, message) = try runOnce(path, prefix: strace)
    #expect(status == 2, "the writer reports the failure: \(message)")
    #expect(message.contains(errno), "\(message)")
    #expect(message.contains(section), "\(message)")
    let left = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    #expect(left == ["store.mgs", "store.mgs.lock"], "no temporary file is left")
    // Only the directory fsync fails after the rename: the file then holds the new save.
    let expected: [Int64] = when == 2 ? [1, 2] : [1]
    #expect(try generations(in: path) == expected)
  }
}
