extension Table {
  /// Makes `rows` of this working table hold what they hold in `newer`: their stamps and every
  /// value. `newer` is a published version of the same entity, published over `older` (the
  /// version this table was copied from) with no other row written, and this table's session
  /// changed none of `rows`. A chunk this table has not written is taken from `newer` whole
  /// (shared, not copied); only chunks it wrote get the values copied in.
  ///
  /// - Complexity: O(rows × columns), plus a block and group copy per chunk first taken.
  func absorb(rows: [Int32], from newer: Table, over older: Table) {
    grow(to: newer.rowCount)
    let rows = rows.lazy.map(Int.init).filter { $0 < newer.rowCount }
    // Counted over all the rows before and after: taking a chunk whole changes every row of
    // it that `newer` wrote at once.
    let liveBefore = rows.count(where: isAlive)
    for row in rows {
      stamps.absorb(row: row, from: newer.stamps, over: older.stamps)
      for (slot, column) in attributeColumns.enumerated() {
        column.absorb(
          row: row, from: newer.attributeColumns[slot], over: older.attributeColumns[slot])
      }
      for (slot, column) in relationshipColumns.enumerated() {
        column.absorb(
          row: row, from: newer.relationshipColumns[slot], over: older.relationshipColumns[slot])
      }
    }
    liveCount += rows.count(where: isAlive) - liveBefore
  }
}
