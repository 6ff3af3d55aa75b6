extension Table {
  /// Copies of the chunks the columns appended and hold alone (see
  /// ``AnyColumn/packedCopies(minimum:)``), column by column.
  func packedCopies(minimum: Int) -> [PackedChunks] {
    allColumns.map { $0.packedCopies(minimum: minimum) }
  }

  /// Puts the copies ``packedCopies(minimum:)`` made in place of their chunks.
  func install(_ copies: [PackedChunks]) {
    for (column, copies) in zip(allColumns, copies) where !copies.isEmpty {
      column.install(copies)
    }
  }

  private var allColumns: [AnyColumn] { [stamps] + attributeColumns + relationshipColumns }
}
