/// A column of one attribute in one table: type-erased face of ``Column``.
///
/// The engine keeps values unboxed in ``Column`` subclasses; this base class gives the dynamic
/// API (the runner, snapshots, rebasing a save) access without knowing the element type.
public class AnyColumn: @unchecked Sendable {
  // @unchecked Sendable: a column is mutated only by the session that owns its table; a column
  // reachable from a published StoreVersion is never mutated again (sessions copy first).

  /// Rows held in each chunk; chunks are the unit of copy-on-write.
  public static let chunkShift = 12
  /// Mask of a row's index inside its chunk.
  public static let chunkMask = (1 << chunkShift) - 1

  init() {}

  /// The number of rows.
  public var count: Int { fatalError("abstract") }
  /// The value at `row`, boxed.
  public func value(at row: Int) -> ModelValue { fatalError("abstract") }
  /// Stores a boxed value at `row`; returns `false` when its type does not fit the column.
  public func setValue(_ value: ModelValue, at row: Int) -> Bool { fatalError("abstract") }
  /// The value at `row`, unboxed but type-erased.
  public func anyValue(at row: Int) -> any ColumnValue { fatalError("abstract") }
  /// Copies the value at `row` of `other` (a column of the same type) into `row` of this one.
  func copyValue(from other: AnyColumn, row: Int) { fatalError("abstract") }
  /// Grows the column to `count` rows filled with the placeholder value.
  func grow(to count: Int) { fatalError("abstract") }
  /// Resets `row` to the placeholder value, releasing what it held.
  func clear(row: Int) { fatalError("abstract") }
  /// A new column object sharing this one's chunks (copy-on-write).
  func copy() -> AnyColumn { fatalError("abstract") }
  /// The storage type of the elements.
  public var elementType: any ColumnValue.Type { fatalError("abstract") }
}

/// A column of unboxed values, split in fixed-size chunks that are copied on write.
///
/// A committed store version and the working copy of a session share chunks until one of them
/// writes; a write copies just the chunk it touches.
public final class Column<Element: ColumnValue>: AnyColumn, @unchecked Sendable {
  // @unchecked Sendable: see AnyColumn.

  /// The chunks; every chunk but the last holds exactly `1 << chunkShift` rows.
  @exclusivity(unchecked) @usableFromInline var chunks: [[Element]]
  @exclusivity(unchecked) @usableFromInline var rowCount: Int

  /// An empty column.
  public override init() {
    chunks = []
    rowCount = 0
  }

  init(chunks: [[Element]], rowCount: Int) {
    self.chunks = chunks
    self.rowCount = rowCount
  }

  /// The number of rows.
  public override var count: Int { rowCount }

  /// The value at `row`.
  ///
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  public subscript(row: Int) -> Element {
    get { chunks[row &>> AnyColumn.chunkShift][row & AnyColumn.chunkMask] }
    set { chunks[row &>> AnyColumn.chunkShift][row & AnyColumn.chunkMask] = newValue }
  }

  /// Appends a value as a new last row.
  ///
  /// - Complexity: Amortized O(1).
  @inlinable
  public func append(_ value: Element) {
    if rowCount & AnyColumn.chunkMask == 0 {
      var chunk: [Element] = []
      chunk.reserveCapacity(1 << AnyColumn.chunkShift)
      chunks.append(chunk)
    }
    chunks[chunks.count - 1].append(value)
    rowCount += 1
  }

  /// Calls `body` with each chunk's values in row order, and the row of the chunk's first value.
  @inlinable
  public func forEachChunk(_ body: (Int, UnsafeBufferPointer<Element>) throws -> Void) rethrows {
    for index in chunks.indices {
      try chunks[index].withUnsafeBufferPointer { try body(index << AnyColumn.chunkShift, $0) }
    }
  }

  public override func value(at row: Int) -> ModelValue { self[row].modelValue }

  public override func anyValue(at row: Int) -> any ColumnValue { self[row] }

  public override func setValue(_ value: ModelValue, at row: Int) -> Bool {
    guard let typed = Element(modelValue: value) else { return false }
    self[row] = typed
    return true
  }

  override func copyValue(from other: AnyColumn, row: Int) {
    self[row] = unsafeDowncast(other, to: Column<Element>.self)[row]
  }

  override func grow(to count: Int) {
    while rowCount < count {
      let used = rowCount & AnyColumn.chunkMask
      let added = min(count - rowCount, (1 << AnyColumn.chunkShift) - used)
      if used == 0 {
        chunks.append(Array(repeating: Element.placeholder, count: added))
      } else {
        chunks[chunks.count - 1].append(
          contentsOf: Array(repeating: Element.placeholder, count: added))
      }
      rowCount += added
    }
  }

  override func clear(row: Int) { self[row] = Element.placeholder }

  override func copy() -> AnyColumn { Column(chunks: chunks, rowCount: rowCount) }

  public override var elementType: any ColumnValue.Type { Element.self }
}
