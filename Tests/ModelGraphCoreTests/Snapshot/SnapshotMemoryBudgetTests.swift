import Testing

@testable import ModelGraphCore

@Suite("Snapshot reader: memory budget")
struct SnapshotMemoryBudgetTests {
  @Test("a file whose tables would take more memory than its budget is refused, naming it")
  func overBudget() throws {
    let bytes = try SnapshotFixture.bytes()
    // Each table holds a few rows, so each takes at least one chunk of rows per column.
    let error = try #require(throws: SnapshotError.self) {
      try bytes.withUnsafeBytes {
        try SnapshotReader.decode($0, path: "small.mgs", memoryBudget: 10_000)
      }
    }
    #expect(error.code == .malformed)
    #expect(error.section.hasPrefix("table "))
    #expect(error.message.contains("bytes of memory"))
    let offset = try #require(error.offset)
    #expect(offset > 0 && offset < bytes.count)
    let version = try bytes.withUnsafeBytes {
      try SnapshotReader.decode($0, path: "small.mgs", memoryBudget: 100_000_000)
    }
    #expect(version.version.tables.count == SnapshotFixture.descriptions.count)
  }

  @Test("the budget is 16 bytes per byte of file, and at least 1 GiB")
  func budget() {
    #expect(SnapshotReader.memoryBudget(fileSize: 1_000) == 1 << 30)
    #expect(SnapshotReader.memoryBudget(fileSize: 1 << 30) == 16 << 30)
  }
}
