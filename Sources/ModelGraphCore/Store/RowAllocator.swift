/// Hands out the rows of one table: rows given back unused, then new rows after the last one;
/// the rows deleted objects freed come first once they are a quarter of the table.
///
/// A new row past every version's last lands in the last chunk, which a writer appends to in
/// place (see ``Column``); a freed row lies anywhere, and writing it copies its chunk in every
/// column, a cost a small save would pay for each object it inserts. So freed rows wait until
/// they are a quarter of the rows (or a save reuses them in bulk), then are all handed out,
/// lowest first: a table holds at most a third more rows than objects for long.
struct RowAllocator: Sendable {
  private(set) var nextRow = 0
  /// Rows freed by deletes, last to reuse first.
  private var free: [(row: Int, generation: UInt32)] = []
  /// Rows a session reserved and gave back without using them, highest first (the last is
  /// reused first).
  private var returned: [(row: Int, generation: UInt32)] = []
  /// Whether freed rows are handed out before new ones, from when they reached a quarter of the
  /// rows until none is left.
  private var reusing = false

  /// A row for a new object and the generation it gets; `bulk` when the caller is about to
  /// insert many objects, which reuse freed rows whatever their number.
  mutating func allocate(bulk: Bool = false) -> (row: Int, generation: UInt32) {
    if free.isEmpty {
      reusing = false
    } else {
      if free.count * 4 >= nextRow - returned.count { reusing = true }
      if reusing || bulk { return free.removeLast() }
    }
    if let row = returned.popLast() { return row }
    defer { nextRow += 1 }
    return (nextRow, 0)
  }

  /// Makes `row`, freed by a delete, available again; its next object gets `generation`.
  mutating func release(row: Int, generation: UInt32) {
    free.append((row, generation))
  }

  /// Takes back `rows`, handed out and not used, to hand out next, lowest first (so that new
  /// objects keep landing past the table's last row); each keeps its generation.
  mutating func giveBack(_ rows: [(row: Int, generation: UInt32)]) {
    returned += rows
    returned.sort { $0.row > $1.row }
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
