import Foundation
import Testing

@testable import ModelGraphCore

/// Files on the real file system are read on a second thread while they are decoded; these
/// tests hold that path to the answers of decoding the whole file's bytes.
@Suite("Snapshot files read ahead while they are decoded")
struct SnapshotReadAheadTests {
  /// A store whose file spans several of the reader's pieces.
  private func bigStore() throws -> Store {
    let store = try SnapshotFixture.makeStore(trips: 6, deletions: 0)
    let session = Session(store: store)
    let big = SnapshotReadAhead.pieceSize + 1000
    session.table(SnapshotFixture.trip).column(0, as: String.self)[0] = String(
      repeating: "a", count: big)
    session.noteAttributeWrite(entity: SnapshotFixture.trip, row: 0, slot: 0)
    session.table(SnapshotFixture.business).column(12, as: String.self)[0] = String(
      repeating: "b", count: 2 * big)
    session.noteAttributeWrite(entity: SnapshotFixture.business, row: 0, slot: 12)
    try session.save()
    return store
  }

  /// What loading `bytes` from a real file gives, and what decoding them whole gives.
  private func outcomes(_ bytes: [UInt8], directory: String) throws -> (
    file: Result<[UInt8], SnapshotError>, whole: Result<[UInt8], SnapshotError>
  ) {
    let path = directory + "/damaged.mgs"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    func result(_ body: () throws -> StoreVersion) -> Result<[UInt8], SnapshotError> {
      do {
        return .success(SnapshotWriter.encode(try body()))
      } catch let error as SnapshotError {
        return .failure(error)
      } catch {
        Issue.record("not a SnapshotError: \(error)")
        return .failure(SnapshotError(.io, path: path, section: "", message: "\(error)"))
      }
    }
    return (
      result { try #require(try SnapshotFile(path: path).load()) },
      result { try SnapshotReader.decode(bytes, path: path) }
    )
  }

  @Test("a file of several pieces loads from disk exactly as it was saved")
  func severalPieces() throws {
    let directory = try JournalFixture.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let store = try bigStore()
    let lineage = SnapshotLineage(generation: 5, previous: 4)
    let file = SnapshotFile(path: directory + "/big.mgs")
    let size = try file.save(store.version, lineage: lineage)
    #expect(size > 3 * SnapshotReadAhead.pieceSize)
    let loaded = try #require(try file.loadWithLineage())
    #expect(loaded.lineage == lineage)
    #expect(SnapshotWriter.encode(loaded.version) == SnapshotWriter.encode(store.version))
  }

  @Test("bit flips and truncations give the same error as decoding the whole bytes")
  func damageAgrees() throws {
    let directory = try JournalFixture.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let small = SnapshotWriter.encode(try SnapshotFixture.makeStore().version)
    let big = SnapshotWriter.encode(try bigStore().version)
    var generator = SystemRandomNumberGenerator()
    let piece = SnapshotReadAhead.pieceSize
    // The small file: every byte of the header and the first blocks, then a spread of offsets;
    // the big one: offsets around the reader's pieces and the end.
    var smallOffsets = Array(0..<200) + stride(from: 200, to: small.count, by: 13)
    smallOffsets += (0..<20).map { _ in Int.random(in: 0..<small.count, using: &generator) }
    let bigOffsets = [
      30, piece - 2, 2 * piece + 5, big.count - 20,
      Int.random(in: 0..<big.count, using: &generator),
    ]
    for (bytes, offsets) in [(small, smallOffsets), (big, bigOffsets)] {
      for offset in offsets {
        var flipped = bytes
        flipped[offset] ^= 0x10
        let (file, whole) = try outcomes(flipped, directory: directory)
        #expect(file == whole, "bit flip at \(offset)")
      }
      let cuts = [0, 7, 30, bytes.count / 2, bytes.count - 1]
      for length in cuts {
        let (file, whole) = try outcomes(Array(bytes[..<length]), directory: directory)
        #expect(file == whole, "cut at \(length)")
      }
    }
  }
}
