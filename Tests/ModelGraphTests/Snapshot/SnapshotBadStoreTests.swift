import Foundation
import ModelGraph
import ModelGraphCore
import Testing

/// The real file system, except that reading a file fails as a file without read permission
/// does (root bypasses permissions, so a chmod cannot show this when tests run as root).
private struct UnreadableFileIO: ForwardingFileIO {
  let base = SystemFileIO()

  func readFile(_ path: String) throws -> [UInt8] {
    throw SnapshotError(.io, path: path, section: "open", message: "Permission denied (errno 13)")
  }
}

@Suite("Damaged store files through ModelContainer")
struct SnapshotBadStoreTests {
  /// Writes a small store to `scratch.store` and returns the file's bytes.
  private func writeStore(_ scratch: SnapshotScratch) throws -> [UInt8] {
    let container = try ModelContainer(
      for: Trip.self, configurations: ModelConfiguration(url: scratch.store))
    let context = ModelContext(container)
    context.insert(BusinessTrip(name: "work", company: "Acme"))
    context.insert(PersonalTrip(name: "fun", reason: .family, companions: ["Cy"]))
    try context.save()
    try container.snapshot()
    return try [UInt8](Data(contentsOf: scratch.store))
  }

  /// Opening must fail with an error naming the file, a section and an offset, twice (the
  /// first failure does not replace the file), and leave the bytes as they were.
  private func expectRefused(_ scratch: SnapshotScratch, _ bytes: [UInt8], _ note: String)
    throws
  {
    try Data(bytes).write(to: scratch.store)
    for attempt in 1...2 {
      let error = try #require(throws: SnapshotError.self, "\(note), attempt \(attempt)") {
        _ = try ModelContainer(
          for: Trip.self, configurations: ModelConfiguration(url: scratch.store))
      }
      #expect(error.path == scratch.store.path, "\(note)")
      #expect(!error.section.isEmpty && error.offset != nil, "\(note): \(error)")
    }
    #expect(try [UInt8](Data(contentsOf: scratch.store)) == bytes, "\(note): file unchanged")
  }

  @Test("truncated and bit-flipped files are refused and never replaced by an empty store")
  func damagedFiles() throws {
    let scratch = try SnapshotScratch()
    let original = try writeStore(scratch)
    for length in [0, 7, 27, 28, 100, original.count / 2, original.count - 1] {
      try expectRefused(scratch, Array(original[0..<length]), "truncated at \(length)")
    }
    var random = SplitMix64(seed: 66)
    for _ in 0..<20 {
      var damaged = original
      let index = Int.random(in: 0..<damaged.count, using: &random)
      damaged[index] ^= 1 << UInt8.random(in: 0..<8, using: &random)
      try expectRefused(scratch, damaged, "bit flip at \(index)")
    }
    try Data(original).write(to: scratch.store)
    let container = try ModelContainer(
      for: Trip.self, configurations: ModelConfiguration(url: scratch.store))
    #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 2)
  }

  @Test("an unreadable file is an error, not an empty store, and is left in place")
  func unreadableFile() throws {
    let scratch = try SnapshotScratch()
    let original = try writeStore(scratch)
    let error = try #require(throws: SnapshotError.self) {
      _ = try ModelContainer(
        for: [Trip.self], configurations: [ModelConfiguration(url: scratch.store)],
        fileIO: UnreadableFileIO())
    }
    #expect(error.code == .io && error.path == scratch.store.path)
    #expect(try [UInt8](Data(contentsOf: scratch.store)) == original)
    _ = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: scratch.store))
  }
}
