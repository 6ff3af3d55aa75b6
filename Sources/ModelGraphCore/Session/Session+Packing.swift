extension Session {
  /// The fewest chunks a column must have appended for a save to pack them.
  static var packingMinimum: Int { 8 }

  /// Before a save publishes: replaces the chunks its working tables appended (at least
  /// ``packingMinimum`` in a column) with copies made one after another.
  ///
  /// A bulk insert appends chunks one at a time between the caller's objects, which are freed
  /// after the save; each run of freed objects between two chunks is a hole in which the
  /// allocator keeps its partial pages resident for good. The copies are made back to back,
  /// all before any chunk they replace is released (a released chunk's small objects would
  /// be reused by the next copy), and they hold no spare capacity.
  /// - Complexity: O(bytes of the chunks copied); nothing for a save that appended fewer
  ///   than ``packingMinimum`` chunks to every column.
  func packAppendedChunks() {
    let tables = changes.compactMap { entity, change in change.isEmpty ? nil : working[entity] }
    let copies = tables.map { $0.packedCopies(minimum: Self.packingMinimum) }
    for (table, copies) in zip(tables, copies) { table.install(copies) }
  }
}
