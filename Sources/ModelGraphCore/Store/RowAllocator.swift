/// Hands out the rows of one table: freed rows first (with their next generation), then new ones.
struct RowAllocator: Sendable {
  private(set) var nextRow = 0
  private var free: [(row: Int, generation: UInt32)] = []

  /// A row for a new object and the generation it gets.
  mutating func allocate() -> (row: Int, generation: UInt32) {
    if let reused = free.popLast() { return reused }
    defer { nextRow += 1 }
    return (nextRow, 0)
  }

  /// Makes `row` available again; its next object gets `generation`.
  mutating func release(row: Int, generation: UInt32) {
    free.append((row, generation))
  }

  /// Accounts for rows that a loaded table already holds.
  mutating func reserve(through rowCount: Int) {
    nextRow = max(nextRow, rowCount)
  }
}

extension RowAllocator {
  /// The allocator of a loaded table: new rows after its last, and its empty rows first, each
  /// with the generation its stamp holds.
  init(table: Table) {
    reserve(through: table.rowCount)
    // The stamps read chunk by chunk (not row by row through the column's subscript); the
    // empty rows are released last first, so the first of them is reused first.
    var empty: [(row: Int, generation: UInt32)] = []
    table.stamps.forEachChunk { start, stamps in
      for offset in stamps.indices where stamps[offset] & 1 == 0 {
        empty.append((start + offset, stamps[offset] >> 1))
      }
    }
    for (row, generation) in empty.reversed() { release(row: row, generation: generation) }
  }
}
