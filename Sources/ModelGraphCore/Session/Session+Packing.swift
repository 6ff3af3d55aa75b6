extension Session {
  /// The fewest chunks a column must have appended for a save to pack them.
  static var packingMinimum: Int { 8 }

  /// Before a save publishes: replaces the chunks its working tables appended (at least
  /// ``packingMinimum`` in a column) with copies made one after another. A chunk counts as
  /// appended when all its rows lie past the base version's rows: chunks a write copied (an
  /// update) are left as they are.
  ///
  /// A bulk insert appends chunks one at a time between the caller's objects, which are freed
  /// after the save; each run of freed objects between two chunks is a hole in which the
  /// allocator keeps its partial pages resident for good. The copies are made back to back,
  /// all before any chunk they replace is released (a released chunk's small objects would
  /// be reused by the next copy), and they hold no spare capacity.
  /// - Complexity: O(bytes of the chunks copied); O(tables changed), without an allocation,
  ///   for a save that appended fewer than ``packingMinimum`` chunks to every table.
  func packAppendedChunks() {
    let tables = changes.compactMap { entity, change -> (table: Table, first: Int)? in
      guard !change.isEmpty, let table = working[entity] else { return nil }
      let baseRows = entity < base.tables.count ? base.tables[entity].rowCount : 0
      let first = (baseRows + AnyColumn.chunkMask) >> AnyColumn.chunkShift
      // Every column has the table's chunks: one that appended too few is skipped here,
      // without a look at its columns (a small save allocates nothing for packing).
      let chunks = (table.rowCount + AnyColumn.chunkMask) >> AnyColumn.chunkShift
      guard chunks - first >= Self.packingMinimum else { return nil }
      return (table, first)
    }
    let copies = tables.map {
      $0.table.packedCopies(from: $0.first, minimum: Self.packingMinimum)
    }
    for (table, copies) in zip(tables, copies) { table.table.install(copies) }
  }
}
