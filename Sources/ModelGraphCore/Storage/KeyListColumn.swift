/// The column of a to-many relationship: each row's related keys, in order, without an array
/// (or any allocation) per row.
///
/// Rows are split in chunks of `1 << AnyColumn.chunkShift`, each one arena of keys plus a span
/// per row; chunks are shared between a committed table and a session's
/// working copy until one of them writes, as ``Column`` chunks are. The column presents its
/// values as `[ObjectKey]` to the dynamic API (``elementType``, ``value(at:)``), and encodes
/// them exactly as a column of `[ObjectKey]` would.
public final class KeyListColumn: AnyColumn, @unchecked Sendable {
  // @unchecked Sendable: see AnyColumn.

  @exclusivity(unchecked) private var directory: ChunkDirectory
  @exclusivity(unchecked) private var rowCount: Int

  /// An empty column.
  public override init() {
    directory = ChunkDirectory()
    rowCount = 0
  }

  private init(sharing other: KeyListColumn) {
    directory = ChunkDirectory(sharing: other.directory)
    rowCount = other.rowCount
  }

  deinit { directory.deallocate() }

  public override var count: Int { rowCount }

  /// The keys at `row`, in order.
  ///
  /// - Complexity: O(keys); reading allocates the array, ``withKeys(at:_:)`` does not.
  public subscript(row: Int) -> [ObjectKey] {
    get { withKeys(at: row) { Array($0) } }
    set { newValue.withUnsafeBufferPointer { set($0, at: row) } }
  }

  /// Calls `body` with the keys at `row`; the buffer is valid only inside `body`.
  @inline(__always)
  public func withKeys<Result>(
    at row: Int, _ body: (UnsafeBufferPointer<ObjectKey>) throws -> Result
  ) rethrows -> Result {
    precondition(row >= 0 && row < rowCount, "row \(row) out of range")
    return try body(
      chunk(row &>> AnyColumn.chunkShift).keys(at: row & AnyColumn.chunkMask))
  }

  /// The number of keys at `row`.
  public func keyCount(at row: Int) -> Int { withKeys(at: row) { $0.count } }

  /// Makes `keys` the list at `row`.
  ///
  /// - Complexity: O(keys), amortized; copies the row's chunk first if another column shares it.
  public func set(_ keys: UnsafeBufferPointer<ObjectKey>, at row: Int) {
    writableChunk(for: row).set(keys, at: row & AnyColumn.chunkMask)
  }

  /// Adds `key` at the end of the list at `row`.
  ///
  /// - Complexity: O(1) amortized when the row's list is the last one written in its chunk,
  ///   else O(keys at the row).
  public func append(_ key: ObjectKey, at row: Int) {
    writableChunk(for: row).append(key, at: row & AnyColumn.chunkMask)
  }

  private func writableChunk(for row: Int) -> KeyListChunk {
    precondition(row >= 0 && row < rowCount, "row \(row) out of range")
    let index = row &>> AnyColumn.chunkShift
    if !directory.owns(index) {
      directory.own(index) {
        let copy = unsafeDowncast($0, to: KeyListChunk.self).clone()
        return (copy, Unmanaged.passUnretained(copy).toOpaque())
      }
    }
    return chunk(index)
  }

  /// Chunk `index` of this new column, grown to its rows, for loading a file
  /// (``KeyListChunk/load(total:fill:)``).
  func chunkForLoading(_ index: Int) -> KeyListChunk {
    precondition(directory.owns(index), "chunk \(index) is shared")
    return chunk(index)
  }

  /// Chunk `index`.
  @inline(__always)
  private func chunk(_ index: Int) -> KeyListChunk {
    Unmanaged<KeyListChunk>.fromOpaque(directory.address(index)).takeUnretainedValue()
  }

  public override func value(at row: Int) -> ModelValue { self[row].modelValue }

  public override func anyValue(at row: Int) -> any ColumnValue { self[row] }

  public override func setValue(_ value: ModelValue, at row: Int) -> Bool {
    guard let keys = [ObjectKey](modelValue: value) else { return false }
    self[row] = keys
    return true
  }

  override func copyValue(from other: AnyColumn, row: Int) {
    copyValue(from: other, fromRow: row, toRow: row)
  }

  public override func copyValue(from other: AnyColumn, fromRow: Int, toRow: Int) {
    let other = unsafeDowncast(other, to: KeyListColumn.self)
    if other === self {
      let keys = self[fromRow]
      self[toRow] = keys
      return
    }
    other.withKeys(at: fromRow) { set($0, at: toRow) }
  }

  override func hasSameValue(at row: Int, as other: AnyColumn) -> Bool {
    let other = unsafeDowncast(other, to: KeyListColumn.self)
    guard row < rowCount && row < other.rowCount else { return false }
    let index = row &>> AnyColumn.chunkShift
    if directory.chunk(index) === other.directory.chunk(index) { return true }
    return withKeys(at: row) { mine in
      other.withKeys(at: row) { theirs in mine.elementsEqual(theirs) }
    }
  }

  override func grow(to count: Int) {
    guard count > rowCount else { return }
    let needed = (count + KeyListChunk.capacity - 1) >> AnyColumn.chunkShift
    while directory.count < needed {
      // A new chunk's arena starts at the size of the last one's keys, as string arenas do:
      // lists of similar length fill it without growing it step by step, each step a freed
      // arena left between the allocations that stay.
      let previous = directory.count > 0 ? chunk(directory.count - 1).liveKeys : 0
      let chunk = KeyListChunk(reserving: previous + previous / 16)
      directory.append(chunk, address: Unmanaged.passUnretained(chunk).toOpaque())
    }
    rowCount = count
  }

  override func clear(row: Int) {
    guard keyCount(at: row) > 0 else { return }
    set(UnsafeBufferPointer(start: nil, count: 0), at: row)
  }

  override func absorb(row: Int, from newer: AnyColumn, over older: AnyColumn) {
    let newer = unsafeDowncast(newer, to: KeyListColumn.self)
    let older = unsafeDowncast(older, to: KeyListColumn.self)
    guard
      !directory.absorb(
        row &>> AnyColumn.chunkShift, from: newer.directory, over: older.directory)
    else { return }
    copyValue(from: newer, row: row)
  }

  override func copy() -> AnyColumn { KeyListColumn(sharing: self) }

  override func freeze() { if !directory.isFrozen { directory.freeze() } }

  override func packedCopies(from first: Int, minimum: Int) -> PackedChunks {
    // The copies are compacted: no garbage, no spare arena capacity.
    directory.packedCopies(of: directory.ownedChunks(from: first, minimum: minimum)) {
      let copy = unsafeDowncast($0, to: KeyListChunk.self).clone(spare: false)
      return (copy, Unmanaged.passUnretained(copy).toOpaque())
    }
  }

  override func install(_ copies: PackedChunks) { directory.install(copies) }

  override func sharesAllChunks(with other: AnyColumn) -> Bool {
    guard let other = other as? KeyListColumn else { return false }
    return rowCount == other.rowCount && directory.sharesAllChunks(with: other.directory)
  }

  public override var elementType: any ColumnValue.Type { [ObjectKey].self }

  public override var elementStride: Int { MemoryLayout<KeySpan>.stride }
}
