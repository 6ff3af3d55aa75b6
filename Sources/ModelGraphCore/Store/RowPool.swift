/// Hands out the rows of new objects under a lock of its own, so that a session inserting
/// never waits for another session's save to publish (which holds the store's lock).
///
/// Lock order: a caller holding the store's lock may take this one, never the reverse.
final class RowPool: Sendable {
  private struct State {
    /// Per entity; an entity registered after the pool was made gets one when first used.
    var allocators: [RowAllocator]
    /// The store's persistence, which may hand out rows of its own (a shared database's).
    var persistence: (any StorePersistence)?

    mutating func cover(_ entity: Int) {
      if allocators.count <= entity {
        allocators += Array(repeating: RowAllocator(), count: entity + 1 - allocators.count)
      }
    }
  }

  private let state: Locked<State>
  /// The rows asked for at once from which freed rows are reused whatever their number: a
  /// save inserting that many writes whole chunks anyway.
  static let bulkCount = 64

  /// A pool for the tables of `tables` (a loaded version's, or none).
  init(tables: [Table] = []) {
    state = Locked(State(allocators: tables.map(RowAllocator.init), persistence: nil))
  }

  /// Makes later allocations ask `persistence` first.
  func attach(_ persistence: (any StorePersistence)?) {
    state.withLock { $0.persistence = persistence }
  }

  /// `count` rows of `entity` for new objects, in the order to use them (last first).
  func allocate(entity: ResolvedEntity, count: Int) -> [(row: Int, generation: UInt32)] {
    state.withLock { state in
      if let rows = state.persistence?.allocateRows(entity: entity, count: count) {
        return rows
      }
      state.cover(entity.index)
      let bulk = count >= RowPool.bulkCount
      return (0..<count).map { _ in state.allocators[entity.index].allocate(bulk: bulk) }
        .reversed()
    }
  }

  /// Takes back rows ``allocate(entity:count:)`` gave that no object used; they keep their
  /// generation.
  func returnUnused(_ rows: [(row: Int, generation: UInt32)], entity: ResolvedEntity) {
    state.withLock { state in
      if state.persistence?.returnRows(rows, entity: entity) == true { return }
      state.cover(entity.index)
      state.allocators[entity.index].giveBack(rows)
    }
  }

  /// Makes rows available again, each for an object of the generation given, unless the
  /// persistence never reuses a row (a database other processes share).
  ///
  /// The rows of one call are handed out again lowest first, so the inserts that reuse them
  /// fill one chunk after another (each insert writes the chunk of its row in every column)
  /// instead of a chunk anywhere in the table each time.
  func release(_ rows: [(entity: Int, row: Int, generation: UInt32)]) {
    guard !rows.isEmpty else { return }
    // Sorted outside the lock; highest first, since an allocator hands out its last first.
    let order = Self.releaseOrder(rows)
    state.withLock { state in
      if let persistence = state.persistence, !persistence.reusesFreedRows { return }
      for (entity, rows) in order {
        state.cover(entity)
        for packed in rows {
          let (row, generation) = PackedRowSort.unpack(packed)
          state.allocators[entity].release(row: row, generation: generation)
        }
      }
    }
  }

  /// `rows` by entity, lowest entity first, each entity's rows highest first, a row and its
  /// generation packed in one `UInt64` (the row in the high half): a radix sort of integers
  /// (``PackedRowSort``), not a sort of tuples through a closure, which a delete of many
  /// objects would pay inside the store's lock.
  static func releaseOrder(_ rows: [(entity: Int, row: Int, generation: UInt32)])
    -> [(entity: Int, rows: [UInt64])]
  {
    var byEntity: [[UInt64]] = []
    for item in rows {
      if byEntity.count <= item.entity {
        byEntity += Array(repeating: [], count: item.entity + 1 - byEntity.count)
      }
      byEntity[item.entity].append(PackedRowSort.pack(row: item.row, value: item.generation))
    }
    var order: [(entity: Int, rows: [UInt64])] = []
    for entity in byEntity.indices where !byEntity[entity].isEmpty {
      PackedRowSort.sort(&byEntity[entity])
      byEntity[entity].reverse()
      order.append((entity, byEntity[entity]))
    }
    return order
  }
}
