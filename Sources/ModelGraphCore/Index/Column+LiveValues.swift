extension Column {
  /// Calls `body` with the value and the row of each live row (odd stamp in `stamps`), in row
  /// order, for an index build; a string column decodes only those rows, from their bytes.
  ///
  /// - Complexity: O(rows).
  func forEachLiveValue(stamps: Column<UInt32>, _ body: (Element, Int32) -> Void) {
    stamps.forEachChunk { start, stamps in
      if Element.storesUTF8 {
        for offset in stamps.indices where stamps[offset] & 1 == 1 {
          body(stringValue(at: start + offset), Int32(start + offset))
        }
        return
      }
      withChunk(start >> AnyColumn.chunkShift) { values in
        for offset in stamps.indices where stamps[offset] & 1 == 1 {
          body(values[offset], Int32(start + offset))
        }
      }
    }
  }
}
