extension Table {
  /// Copies of the chunks from index `first` on that the columns hold alone (see
  /// ``AnyColumn/packedCopies(from:minimum:)``), column by column.
  func packedCopies(from first: Int, minimum: Int) -> [PackedChunks] {
    allColumns.map { $0.packedCopies(from: first, minimum: minimum) }
  }

  /// Puts the copies ``packedCopies(from:minimum:)`` made in place of their chunks.
  func install(_ copies: [PackedChunks]) {
    for (column, copies) in zip(allColumns, copies) where !copies.isEmpty {
      column.install(copies)
    }
  }

  private var allColumns: [AnyColumn] { [stamps] + attributeColumns + relationshipColumns }
}
