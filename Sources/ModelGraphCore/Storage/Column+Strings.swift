/// The element access of `String` and `String?` columns, which keep their values in a
/// ``StringColumnStorage`` (see ``Column/strings``).
extension Column {
  /// The value at `row` of a string column.
  @inlinable @inline(__always)
  func stringValue(at row: Int) -> Element {
    let strings = strings.unsafelyUnwrapped
    if Element.self == String.self { return unsafeBitCast(strings.string(row), to: Element.self) }
    return unsafeBitCast(strings.optionalString(row), to: Element.self)
  }

  /// Stores `value` at `row` of a string column.
  @inlinable @inline(__always)
  func setString(_ value: Element, at row: Int) {
    let strings = strings.unsafelyUnwrapped
    if Element.self == String.self {
      strings.set(unsafeBitCast(value, to: String.self), at: row)
    } else {
      strings.set(unsafeBitCast(value, to: String?.self), at: row)
    }
  }

  /// The UTF-8 arenas of a `String` or `String?` column, which always has them.
  var stringStorage: StringColumnStorage {
    guard let strings else { preconditionFailure("a column of \(Element.self) has no arenas") }
    return strings
  }

  /// ``forEachChunk(_:)`` of a string column: each chunk's values decoded into a buffer.
  @usableFromInline
  func forEachStringChunk(_ body: (Int, UnsafeBufferPointer<Element>) throws -> Void) rethrows {
    var start = 0
    while start < rowCount {
      try withStringChunk(start &>> AnyColumn.chunkShift) { try body(start, $0) }
      start += 1 << AnyColumn.chunkShift
    }
  }

  /// Calls `body` with the values of chunk `index` of a string column, decoded into a buffer.
  @usableFromInline
  func withStringChunk<R>(_ index: Int, _ body: (UnsafeBufferPointer<Element>) throws -> R)
    rethrows -> R
  {
    let start = index &<< AnyColumn.chunkShift
    let count = Swift.max(Swift.min(rowCount &- start, 1 << AnyColumn.chunkShift), 0)
    var values: [Element] = []
    values.reserveCapacity(count)
    for row in start..<start + count { values.append(stringValue(at: row)) }
    return try values.withUnsafeBufferPointer(body)
  }

  /// Calls `body` with the values of chunk `index` of a string column to overwrite, then
  /// stores them.
  func withStringChunkForWriting(
    _ index: Int, _ body: (UnsafeMutableBufferPointer<Element>) throws -> Void
  ) rethrows {
    let start = index &<< AnyColumn.chunkShift
    let count = Swift.max(Swift.min(rowCount &- start, 1 << AnyColumn.chunkShift), 0)
    var values: [Element] = []
    values.reserveCapacity(count)
    for row in start..<start + count { values.append(stringValue(at: row)) }
    try values.withUnsafeMutableBufferPointer { try body($0) }
    for (offset, value) in values.enumerated() { setString(value, at: start + offset) }
  }
}
