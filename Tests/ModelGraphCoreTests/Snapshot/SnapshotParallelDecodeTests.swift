import Foundation
import Testing

@testable import ModelGraphCore

/// A large file's column blocks are checked and decoded on several threads; the result, and
/// the error a damaged file gives, must be those of decoding it block after block.
@Suite("Snapshot column blocks decoded on several threads")
struct SnapshotParallelDecodeTests {
  /// Names that load with and without the slow string path: non-ASCII, carriage returns,
  /// empty strings and plain ASCII.
  private static let names = ["plain", "Zürich ✈︎", "", "x\r\ny", "東京", "a\rb", "ascii only"]

  /// A store of 2,400 trips (several chunks of rows) whose names and notes cycle through
  /// ``names`` (a note every third row is `nil`); in the second chunk every name is ASCII.
  private static func file() throws -> [UInt8] {
    let store = try SnapshotFixture.makeStore(trips: 2_400, deletions: 3)
    let session = Session(store: store)
    let table = session.table(SnapshotFixture.trip)
    let names = table.column(0, as: String.self)
    let notes = table.column(2, as: String?.self)
    for row in 0..<names.count where table.isAlive(row) {
      let isPlainChunk = row >> AnyColumn.chunkShift == 1
      names[row] = isPlainChunk ? "trip \(row)" : Self.names[row % Self.names.count]
      notes[row] = row % 3 == 0 ? nil : Self.names[(row + 1) % Self.names.count]
      session.noteAttributeWrite(entity: SnapshotFixture.trip, row: row, slot: 0)
      session.noteAttributeWrite(entity: SnapshotFixture.trip, row: row, slot: 2)
    }
    try session.save()
    return SnapshotWriter.encode(store.version)
  }

  private static func decode(_ file: [UInt8], parallel: Bool) throws -> StoreVersion {
    try file.withUnsafeBytes {
      try SnapshotReader.decodeWithHistory(
        $0, path: "p.mgs", parallelFrom: parallel ? 0 : .max
      ).version
    }
  }

  /// The error decoding `file` gives, or `nil`.
  private static func failure(_ file: [UInt8], parallel: Bool) -> String? {
    do {
      _ = try decode(file, parallel: parallel)
      return nil
    } catch {
      return "\(error)"
    }
  }

  @Test("decoded on several threads, the file holds what it holds decoded in order")
  func sameVersion() throws {
    let file = try Self.file()
    let parallel = try Self.decode(file, parallel: true)
    let sequential = try Self.decode(file, parallel: false)
    #expect(SnapshotWriter.encode(parallel) == file)
    #expect(SnapshotWriter.encode(sequential) == file)
    for version in [parallel, sequential] {
      let table = version.tables[SnapshotFixture.trip]
      #expect(table.liveCount == sequential.tables[SnapshotFixture.trip].liveCount)
      let names = table.column(0, as: String.self)
      let notes = table.column(2, as: String?.self)
      for row in 0..<names.count where table.isAlive(row) {
        let isPlainChunk = row >> AnyColumn.chunkShift == 1
        #expect(names[row] == (isPlainChunk ? "trip \(row)" : Self.names[row % Self.names.count]))
        #expect(notes[row] == (row % 3 == 0 ? nil : Self.names[(row + 1) % Self.names.count]))
      }
    }
  }

  @Test("a loaded string chunk marks exactly the rows whose bytes are not simple ASCII")
  func simpleRows() throws {
    let version = try Self.decode(try Self.file(), parallel: true)
    let table = version.tables[SnapshotFixture.trip]
    let storage = table.column(0, as: String.self).stringStorage
    let reference = StringChunk()
    for row in 0..<StringChunk.capacity where table.isAlive(row) {
      let name = Self.names[row % Self.names.count]
      reference.set(name, at: row)
      #expect(storage.chunk(0).isSimple(row) == reference.isSimple(row), "row \(row)")
      #expect(storage.chunk(0).string(row) == name)
    }
    let names = table.column(0, as: String.self)
    #expect(names.count > StringChunk.capacity)
    let secondChunk = StringChunk.capacity..<min(names.count, 2 * StringChunk.capacity)
    for row in secondChunk where table.isAlive(row) {
      #expect(storage.chunk(1).isSimple(row - StringChunk.capacity), "row \(row)")
    }
  }

  /// Any failure of the parallel pass decodes the file again in order, so the two errors agree
  /// by construction; what this checks is that every damaged copy is refused through the
  /// parallel entry point, never loaded.
  @Test("damaged files are refused, with the error that decoding in order gives")
  func sameErrors() throws {
    let file = try Self.file()
    var generator = QueryRandom(seed: 29)
    var offsets = (0..<24).map { _ in Int.random(in: 0..<file.count, using: &generator) }
    // Inside the column blocks of the first table, where the threads work.
    offsets += stride(from: 200, to: min(file.count, 40_000), by: 2_503).map { $0 }
    for offset in offsets {
      var damaged = file
      damaged[offset] ^= 0x10
      let parallel = Self.failure(damaged, parallel: true)
      #expect(parallel != nil, "offset \(offset)")
      #expect(parallel == Self.failure(damaged, parallel: false), "offset \(offset)")
    }
  }
}
