import Testing

@testable import ModelGraphCore

/// Freed rows go back to their allocators by entity, each entity's highest row first, so that
/// an allocator (which hands out its last first) reuses the lowest row first.
@Suite("Store: the order the row pool takes freed rows back in")
struct RowPoolTests {
  @Test("rows are grouped by entity, lowest entity first, and each entity's highest row first")
  func releaseOrder() {
    let rows: [(entity: Int, row: Int, generation: UInt32)] = [
      (2, 7, 1), (0, 3, 4), (2, 70_000, 2), (0, 9, 0), (5, 1, 9), (0, 4_000_000_000, 3),
    ]
    let order = RowPool.releaseOrder(rows)
    #expect(order.map(\.entity) == [0, 2, 5])
    let unpacked = order.map { entity in
      entity.rows.map { (row: Int($0 >> 32), generation: UInt32(truncatingIfNeeded: $0)) }
    }
    #expect(unpacked[0].map(\.row) == [4_000_000_000, 9, 3])
    #expect(unpacked[0].map(\.generation) == [3, 0, 4])
    #expect(unpacked[1].map(\.row) == [70_000, 7])
    #expect(unpacked[1].map(\.generation) == [2, 1])
    #expect(unpacked[2].map(\.row) == [1])
    #expect(unpacked[2].map(\.generation) == [9])
  }

  @Test("freed rows come back lowest first once reused")
  func reusesLowestFirst() {
    let pool = RowPool()
    let entity = ResolvedEntity(
      index: 0, description: EntityDescription(name: "Item"), parent: nil)
    let rows = pool.allocate(entity: entity, count: 8)
    #expect(rows.map(\.row).sorted() == Array(0..<8))
    pool.release([(entity.index, 5, 1), (entity.index, 2, 1), (entity.index, 6, 1)])
    // A bulk allocation reuses every freed row before taking new ones, lowest first.
    let again = pool.allocate(entity: entity, count: RowPool.bulkCount)
    let used = again.reversed().prefix(3)
    #expect(used.map(\.row) == [2, 5, 6])
    #expect(used.allSatisfy { $0.generation == 1 })
  }
}
