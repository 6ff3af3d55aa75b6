import Foundation
import Testing

@testable import ModelGraphCore

@Suite("Snapshot files are written as they are encoded")
struct SnapshotStreamingTests {
  @Test("a file larger than the writer holds back is written in pieces, byte for byte the file")
  func pieces() throws {
    let store = try bigStore()
    let big = SnapshotWriter.sinkThreshold + 1000
    let disk = SimFS()
    let lineage = SnapshotLineage(generation: 3, previous: 2)
    let size = try SnapshotFile(path: "/sim/big.mgs", io: disk).save(
      store.version, lineage: lineage)
    let expected = SnapshotWriter.encode(store.version, lineage: lineage)
    #expect(size == expected.count)
    #expect(disk.contents(of: "/sim/big.mgs") == expected)
    #expect(disk.callCount(.write) >= 3)
    let loaded = try #require(try SnapshotFile(path: "/sim/big.mgs", io: disk).loadWithLineage())
    #expect(loaded.lineage == lineage)
    #expect(
      loaded.version.tables[SnapshotFixture.trip].column(0, as: String.self)[0].utf8.count == big)
  }

  /// A store whose file is several pieces long (two values longer than a piece).
  private func bigStore() throws -> Store {
    let store = try SnapshotFixture.makeStore(trips: 6, deletions: 0)
    let session = Session(store: store)
    let big = SnapshotWriter.sinkThreshold + 1000
    session.table(SnapshotFixture.trip).column(0, as: String.self)[0] = String(
      repeating: "a", count: big)
    session.noteAttributeWrite(entity: SnapshotFixture.trip, row: 0, slot: 0)
    session.table(SnapshotFixture.business).column(12, as: String.self)[0] = String(
      repeating: "b", count: big)
    session.noteAttributeWrite(entity: SnapshotFixture.business, row: 0, slot: 12)
    try session.save()
    return store
  }

  @Test("a write failing on a later piece is reported as such, and no file is left")
  func laterPieceFails() throws {
    let store = try bigStore()
    let disk = SimFS()
    let expected = SnapshotWriter.encode(store.version)
    disk.capacity = expected.count - 1000
    let error = try #require(throws: SnapshotError.self) {
      try SnapshotFile(path: "/sim/big.mgs", io: disk).save(store.version)
    }
    #expect(error.code == .io && error.section == "write")
    #expect(error.message.contains("errno \(ENOSPC)"))
    #expect(error.path.hasPrefix("/sim/"))
    #expect(disk.callCount(.write) >= 2)
    #expect(disk.contents(of: "/sim/big.mgs") == nil)
    #expect(try disk.contents(ofDirectory: "/sim").isEmpty, "the temporary file is removed")
  }

  @Test("on the real file system the file is written in pieces and loads (mapped) as saved")
  func systemFiles() throws {
    let store = try bigStore()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let file = SnapshotFile(path: directory + "/big.mgs")
    let lineage = SnapshotLineage(generation: 5, previous: 4)
    let size = try file.save(store.version, lineage: lineage)
    let expected = SnapshotWriter.encode(store.version, lineage: lineage)
    #expect(size == expected.count)
    #expect(try SystemFileIO().readFile(file.path) == expected)
    let mapped = try SystemFileIO().withSnapshotContents(of: file.path) { Array($0) }
    #expect(mapped == expected)
    let loaded = try #require(try file.loadWithLineage())
    #expect(loaded.lineage == lineage)
    #expect(SnapshotWriter.encode(loaded.version, lineage: lineage) == expected)
    #expect(FileManager.default.createFile(atPath: directory + "/empty.mgs", contents: nil))
    #expect(try SystemFileIO().withSnapshotContents(of: directory + "/empty.mgs") { $0.count } == 0)
    let error = try #require(throws: SnapshotError.self) {
      try SnapshotFile(path: directory + "/empty.mgs").load()
    }
    #expect(error.code == .truncated)
  }
}
