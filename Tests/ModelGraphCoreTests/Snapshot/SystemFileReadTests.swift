import Foundation
import Testing

@testable import ModelGraphCore

/// `SystemFileIO.readFile(_:)` returns a file's bytes, an empty file's as `[]`, on any number
/// of threads at once.
@Suite struct SystemFileReadTests {
  @Test func readsEmptyAndNonEmptyFilesOnManyThreads() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("SystemFileReadTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let empty = directory.appendingPathComponent("empty").path
    let full = directory.appendingPathComponent("full").path
    let contents = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
    #expect(FileManager.default.createFile(atPath: full, contents: Data(contents)))

    let reads = try await withThrowingTaskGroup(of: ([UInt8], [UInt8]).self) { group in
      for _ in 0..<8 {
        group.addTask {
          (try SystemFileIO().readFile(empty), try SystemFileIO().readFile(full))
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(reads.count == 8)
    for (emptyBytes, fullBytes) in reads {
      #expect(emptyBytes.isEmpty)
      #expect(fullBytes == contents)
    }
  }
}
