import Testing

@testable import ModelGraphCore

/// A snapshot's blocks are encoded on two threads in windows (``SnapshotBlockPipeline``); the
/// bytes must be those one thread writes, and a failing consumer must stop the pipeline.
@Suite("Snapshot blocks encoded on two threads")
struct SnapshotParallelEncodeTests {
  /// The blocks of a store of 3,000 trips with some deleted.
  private static func sources() throws -> [SnapshotBlockSource] {
    let store = try SnapshotFixture.makeStore(trips: 3_000, deletions: 7)
    return SnapshotWriter.blocks(
      of: store.version, lineage: SnapshotLineage(generation: 3, previous: 2), history: nil,
      formatVersion: SnapshotFormat.version)
  }

  /// The bytes of the blocks, as the pipeline hands them on with these settings.
  private static func bytes(
    _ sources: [SnapshotBlockSource], windowBytes: Int, parallelThreshold: Int
  ) -> [[UInt8]] {
    var blocks: [[UInt8]] = []
    SnapshotBlockPipeline.run(
      sources, lengthLimit: Int(UInt32.max), windowBytes: windowBytes,
      parallelThreshold: parallelThreshold
    ) { block in blocks.append(block.withUnsafeBytes { Array($0) }) }
    return blocks
  }

  @Test("windows of every size give the blocks one thread gives, in order")
  func sameBytes() throws {
    let sources = try Self.sources()
    let sequential = Self.bytes(sources, windowBytes: 1, parallelThreshold: .max)
    #expect(sequential.count == sources.count)
    #expect(sequential.count > 10)
    for windowBytes in [1, 2_000, 30_000, 1 << 30] {
      #expect(Self.bytes(sources, windowBytes: windowBytes, parallelThreshold: 0) == sequential)
    }
  }

  @Test("each block ends with the CRC-32C of its kind, length and payload")
  func blockChecksums() throws {
    let blocks = Self.bytes(try Self.sources(), windowBytes: 10_000, parallelThreshold: 0)
    for block in blocks {
      let length = block[4..<12].reversed().reduce(0) { $0 << 8 | Int($1) }
      #expect(block.count == 12 + length + 4)
      let crc = block[(block.count - 4)...].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
      #expect(CRC32C.checksum(Array(block[..<(block.count - 4)])) == crc)
    }
  }

  @Test("a consumer that fails stops the pipeline: nothing after it, and the error comes back")
  func failingConsumer() throws {
    struct Full: Error {}
    let sources = try Self.sources()
    let sequential = Self.bytes(sources, windowBytes: 1, parallelThreshold: .max)
    for failAt in [0, 1, 5, sources.count - 1] {
      var received: [[UInt8]] = []
      #expect(throws: Full.self) {
        try SnapshotBlockPipeline.run(
          sources, lengthLimit: Int(UInt32.max), windowBytes: 5_000, parallelThreshold: 0
        ) { block in
          guard received.count < failAt else { throw Full() }
          received.append(block.withUnsafeBytes { Array($0) })
        }
      }
      #expect(received == Array(sequential.prefix(failAt)))
    }
  }

  @Test("a file written through a sink in pieces is the file encoded at once, and reads back")
  func drainedFile() throws {
    // Enough trips for a file of more than one piece (format 7 packs the dates and numbers).
    let store = try SnapshotFixture.makeStore(trips: 40_000, deletions: 11)
    var pieces: [UInt8] = []
    var calls = 0
    let file = SnapshotWriter.write(
      store.version, lineage: SnapshotLineage(), lengthLimit: Int(UInt32.max), draining: true
    ) {
      pieces.append(contentsOf: $0)
      calls += 1
    }
    #expect(file.count == 0)
    #expect(file.flushed == pieces.count)
    #expect(pieces.count > SnapshotWriter.sinkThreshold && calls > 1)
    #expect(pieces == SnapshotWriter.encode(store.version))
    let decoded = try pieces.withUnsafeBytes {
      try SnapshotReader.decodeWithHistory($0, path: "d.mgs").version
    }
    #expect(SnapshotWriter.encode(decoded) == pieces)
    #expect(
      decoded.tables[SnapshotFixture.trip].liveCount
        == store.version.tables[SnapshotFixture.trip].liveCount)
  }
}
