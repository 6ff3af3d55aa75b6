import Testing

@testable import ModelGraphCore

@Suite("Snapshot files are written as they are encoded")
struct SnapshotStreamingTests {
  @Test("a file larger than the writer holds back is written in pieces, byte for byte the file")
  func pieces() throws {
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
}
