extension Column {
  /// The number of chunks.
  @inlinable var chunkCount: Int { strings?.chunkCount ?? directory.count }

  /// Calls `body` with the values of chunk `index` (rows `index << chunkShift` onwards, up to
  /// the column's count).
  ///
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  func withChunk<R>(_ index: Int, _ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows
    -> R
  {
    if Element.storesUTF8 { return try withStringChunk(index, body) }
    let start = index &<< AnyColumn.chunkShift
    let count = Swift.min(rowCount &- start, 1 << AnyColumn.chunkShift)
    return try body(UnsafeBufferPointer(start: base(index), count: Swift.max(count, 0)))
  }

  /// The address of chunk `index`'s storage: equal for two columns exactly when they share the
  /// chunk (copy-on-write), so a version diff can skip chunks neither side wrote.
  ///
  /// - Complexity: O(1).
  func chunkStorage(_ index: Int) -> UnsafeRawPointer {
    if let strings {
      return UnsafeRawPointer(Unmanaged.passUnretained(strings.chunk(index)).toOpaque())
    }
    return UnsafeRawPointer(base(index))
  }

  /// Whether this column and `other` share the whole group of chunks `group` (chunks
  /// `group × ChunkDirectory.chunksPerGroup` onwards): then neither wrote any of them since one was copied from the other.
  ///
  /// - Complexity: O(1).
  func sharesChunkGroup(_ group: Int, with other: Column<Element>) -> Bool {
    if let strings, let others = other.strings { return strings.sharesGroup(group, with: others) }
    return directory.sharesGroup(group, with: other.directory)
  }
}

extension AnyColumn {
  /// The address of chunk `index`'s storage, through the typed column (see
  /// ``Column/chunkStorage(_:)``).
  func chunkStorage(at index: Int) -> UnsafeRawPointer {
    func open<Element: ColumnValue>(_: Element.Type) -> UnsafeRawPointer {
      unsafeDowncast(self, to: Column<Element>.self).chunkStorage(index)
    }
    return open(elementType)
  }
}
