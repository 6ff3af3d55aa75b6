extension Column {
  /// Grows this new, empty column to `count` rows whose values `initialize` writes chunk by
  /// chunk, with no placeholder written first (for loading a file).
  ///
  /// `initialize` gets the first row of a chunk, the chunk's uninitialized memory and the number
  /// of its rows below `count`, which it must all initialize; the chunk's rows past `count` get
  /// the placeholder. Not for `String` or `String?` columns, whose values live in arenas.
  func load(
    count: Int,
    _ initialize: (_ start: Int, _ values: UnsafeMutablePointer<Element>, _ rows: Int) -> Void
  ) {
    precondition(rowCount == 0 && directory.count == 0 && strings == nil)
    let capacity = ColumnChunk<Element>.capacity
    var start = 0
    while start < count {
      let rows = Swift.min(count - start, capacity)
      let chunk = ColumnChunk<Element>.makeUninitialized()
      let base = chunk.base
      initialize(start, base, rows)
      if rows < capacity {
        (base + rows).initialize(repeating: Element.placeholder, count: capacity - rows)
      }
      directory.append(chunk, address: UnsafeMutableRawPointer(base))
      start += rows
    }
    rowCount = count
  }
}

extension ColumnChunk {
  /// A chunk whose values are not initialized yet: the caller initializes all of them before
  /// anything else touches the chunk.
  static func makeUninitialized() -> ColumnChunk<Element> {
    unsafeDowncast(
      ColumnChunk<Element>.create(minimumCapacity: capacity) { _ in nil }, to: ColumnChunk.self)
  }
}
