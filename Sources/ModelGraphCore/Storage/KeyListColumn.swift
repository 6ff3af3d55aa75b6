/// The column of a to-many relationship: each row's related keys, in order, without an array
/// (or any allocation) per row.
///
/// Rows are split in chunks of `1 << AnyColumn.chunkShift`, each one arena of keys plus a span
/// per row; chunks are shared between a committed table and a session's
/// working copy until one of them writes, as ``Column`` chunks are. The column presents its
/// values as `[ObjectKey]` to the dynamic API (``elementType``, ``value(at:)``), and encodes
/// them exactly as a column of `[ObjectKey]` would.
///
/// Like a ``Column``, a working column appends rows to the last chunk it shares with published
/// versions in place, under the chunk's claim (`grow(to:)`), instead of copying the chunk:
/// a small save that inserts an object then copies no to-many chunk. Why a published version
/// never sees such a write:
/// - A reader of a version reads, for a row below the version's count, the row's span and the
///   chunk's arena address (`KeyListChunk.keys`), then the keys the span covers.
/// - The claim is taken from the claimer's count on, which is at least every other holder's
///   count in the chunk (the claim stands past the rows of the last column that held it; a
///   holder with fewer rows finds it taken or further on, and copies instead). So the spans the
///   claimer writes are of rows no other holder reads.
/// - The claimer writes keys only past the arena's `KeyListChunk.used` as it was when it took
///   the claim, past every key a span of another holder covers, and never reallocates or
///   compacts the arena (`KeyListChunk.setClaimed(_:at:)` refuses, and the column copies the
///   chunk instead): the address stays, and no key a reader reads is moved, rewritten or freed.
/// - `KeyListChunk.used` and `KeyListChunk.garbage` are read and written only by the
///   claimer (after its compare-and-exchange, which acquires what the previous claimer
///   released) or by a sole owner; a copy of a shared chunk reads only its own rows' spans
///   (`KeyListChunk.clone(prefix:spare:room:)`).
public final class KeyListColumn: AnyColumn, @unchecked Sendable {
  // @unchecked Sendable: see AnyColumn.

  @exclusivity(unchecked) private var directory: ChunkDirectory
  @exclusivity(unchecked) private var rowCount: Int
  /// The shared chunk whose rows from ``claimedFrom`` on this column claimed, to append to it
  /// in place; -1 for none. See ``grow(to:)``.
  @exclusivity(unchecked) private var claimedChunk = -1
  /// The first row this column may write in place in ``claimedChunk``.
  @exclusivity(unchecked) private var claimedFrom = 0
  /// The claimed chunk's ``KeyListChunk/used`` and ``KeyListChunk/garbage`` when the claim was
  /// taken, given back when the claim is abandoned.
  @exclusivity(unchecked) private var claimedArena = (used: 0, garbage: 0)

  /// An empty column.
  public override init() {
    directory = ChunkDirectory()
    rowCount = 0
  }

  private init(sharing other: KeyListColumn) {
    other.releaseTail()
    directory = ChunkDirectory(sharing: other.directory)
    rowCount = other.rowCount
  }

  deinit {
    // A working column dropped with a claim (a rollback, a replay): nobody else saw its rows.
    if claimedChunk >= 0 { abandonClaim() }
    directory.deallocate()
  }

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

  /// Appends the keys at each of `rows`, in order, to `keys`, and after each row the number
  /// of keys `keys` then holds to `ends`.
  ///
  /// The spans of all the rows are read first, then their keys copied: the rows' reads do not
  /// wait on one another, and `keys` grows once.
  /// - Complexity: O(rows + keys).
  public func appendKeys(
    rows: UnsafeBufferPointer<Int>, to keys: inout [ObjectKey], ends: inout [Int]
  ) {
    guard !rows.isEmpty else { return }
    withUnsafeTemporaryAllocation(of: UnsafeBufferPointer<ObjectKey>.self, capacity: rows.count) {
      lists in
      var total = keys.count
      for (index, row) in rows.enumerated() {
        precondition(row >= 0 && row < rowCount, "row \(row) out of range")
        let list = chunk(row &>> AnyColumn.chunkShift).keys(at: row & AnyColumn.chunkMask)
        lists.initializeElement(at: index, to: list)
        total &+= list.count
      }
      let first = keys.count
      let firstEnd = ends.count
      // Filled in place: a list holds a few keys, and copying each through `append(contentsOf:)`
      // cost a call to `memmove` per row.
      keys.append(contentsOf: repeatElement(.placeholder, count: total &- first))
      ends.append(contentsOf: repeatElement(0, count: rows.count))
      keys.withUnsafeMutableBufferPointer { keys in
        ends.withUnsafeMutableBufferPointer { ends in
          var target = keys.baseAddress! + first
          var end = first
          for (index, list) in lists.enumerated() {
            for key in list {
              target.pointee = key
              target += 1
            }
            end &+= list.count
            ends[firstEnd &+ index] = end
          }
        }
      }
    }
  }

  /// Makes `keys` the list at `row`.
  ///
  /// - Complexity: O(keys), amortized; copies the row's chunk first if another column shares it
  ///   (unless this column claimed the row, appending in place).
  public func set(_ keys: UnsafeBufferPointer<ObjectKey>, at row: Int) {
    let offset = row & AnyColumn.chunkMask
    if isClaimed(row) {
      if chunk(row &>> AnyColumn.chunkShift).setClaimed(keys, at: offset) { return }
      // The claimed chunk's arena is full: copy it (the copy has room for the list), and
      // write the copy.
      unshare(row &>> AnyColumn.chunkShift, room: keys.count)
    }
    writableChunk(for: row).set(keys, at: offset)
  }

  /// Adds `key` at the end of the list at `row`.
  ///
  /// - Complexity: O(1) amortized when the row's list is the last one written in its chunk,
  ///   else O(keys at the row).
  public func append(_ key: ObjectKey, at row: Int) {
    let offset = row & AnyColumn.chunkMask
    if isClaimed(row) {
      if chunk(row &>> AnyColumn.chunkShift).appendClaimed(key, at: offset) { return }
      unshare(row &>> AnyColumn.chunkShift, room: keyCount(at: row) + 1)
    }
    writableChunk(for: row).append(key, at: offset)
  }

  /// Whether this column writes `row` in place under its claim, in a chunk it shares.
  @inline(__always)
  private func isClaimed(_ row: Int) -> Bool {
    row &>> AnyColumn.chunkShift == claimedChunk && row >= claimedFrom
  }

  /// The chunk of `row`, for this column alone: copied first if another column shares it.
  /// Not for a row this column claimed (its chunk is shared, and written only in place).
  private func writableChunk(for row: Int) -> KeyListChunk {
    precondition(row >= 0 && row < rowCount, "row \(row) out of range")
    let index = row &>> AnyColumn.chunkShift
    if !directory.owns(index) { unshare(index) }
    return chunk(index)
  }

  /// Gives chunk `index` to this column alone, copying its lists if another column shares it.
  ///
  /// The copy takes the rows below this column's count: a shared chunk's later rows belong to
  /// whichever column claimed them. A claim on the chunk ends: the copy has the rows this
  /// column wrote in place, and the chunk gets them back empty, claimable again.
  /// - Parameter room: Keys the copy leaves room for, on top of its usual spare.
  private func unshare(_ index: Int, room: Int = 0) {
    let start = index &<< AnyColumn.chunkShift
    let prefix = Swift.min(rowCount - start, KeyListChunk.capacity)
    let abandoned = index == claimedChunk ? claimedFrom - start : nil
    if abandoned != nil { claimedChunk = -1 }
    let arena = claimedArena
    let address = directory.address(index)
    directory.own(index) {
      let chunk = unsafeDowncast($0, to: KeyListChunk.self)
      let copy = chunk.clone(prefix: prefix, room: room)
      if let abandoned {
        chunk.abandonClaim(from: abandoned, to: prefix, used: arena.used, garbage: arena.garbage)
      }
      return (copy, Unmanaged.passUnretained(copy).toOpaque())
    }
    if directory.address(index) == address && prefix < KeyListChunk.capacity {
      // Kept without a copy (no other column holds it any more): rows past this column's
      // count may hold what a version that is gone appended in place.
      chunk(index).clearRows(from: prefix)
    }
  }

  /// Makes the rows of chunk `index` from this column's count on writable, before the column
  /// grows into them: claims them in place when the chunk is shared and they are free from
  /// there (no copy; the versions sharing the chunk hold fewer rows and never read them), else
  /// copies the chunk.
  private func takeTail(_ index: Int) {
    if directory.owns(index) || index == claimedChunk { return }
    if claimedChunk >= 0 { releaseClaim() }
    let chunk = chunk(index)
    if chunk.claim(from: rowCount & AnyColumn.chunkMask) {
      claimedChunk = index
      claimedFrom = rowCount
      // Read after the claim's compare-and-exchange: what the last claimer left.
      claimedArena = (chunk.used, chunk.garbage)
    } else {
      unshare(index)
    }
  }

  /// Ends this column's claim without keeping what it wrote in place: those rows are emptied,
  /// the arena is given back, and the rows can be claimed again.
  private func abandonClaim() {
    let start = claimedChunk &<< AnyColumn.chunkShift
    chunk(claimedChunk).abandonClaim(
      from: claimedFrom - start, to: rowCount - start, used: claimedArena.used,
      garbage: claimedArena.garbage)
    claimedChunk = -1
  }

  /// Ends this column's claim, letting the rows past its count be claimed again.
  private func releaseClaim() {
    let start = claimedChunk &<< AnyColumn.chunkShift
    chunk(claimedChunk).release(from: Swift.min(rowCount - start, KeyListChunk.capacity))
    claimedChunk = -1
  }

  /// Before this column's chunks are shared (a copy, a freeze): ends its claim, and lets the
  /// rows of its last chunk past its count be claimed when it owned that chunk alone. Writes
  /// nothing on a column that neither owns nor claimed a chunk (a published one).
  private func releaseTail() {
    if claimedChunk >= 0 { releaseClaim() }
    let tail = rowCount &>> AnyColumn.chunkShift
    if rowCount & AnyColumn.chunkMask != 0 && directory.owns(tail) {
      chunk(tail).release(from: rowCount & AnyColumn.chunkMask)
    }
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

  /// Calls `body` with each chunk's rows below ``count``: how many, their spans and the
  /// chunk's arena (a row's keys are `keys[span.start ..< span.start + span.count]`), valid
  /// only inside `body`. For reading a whole column without a lookup per row.
  func forEachChunk(
    _ body: (
      _ rows: Int, _ spans: UnsafePointer<KeySpan>, _ keys: UnsafePointer<ObjectKey>
    ) throws -> Void
  ) rethrows {
    var start = 0
    var index = 0
    while start < rowCount {
      let rows = Swift.min(rowCount - start, KeyListChunk.capacity)
      let chunk = chunk(index)
      try body(rows, chunk.spans, chunk.keys)
      start += rows
      index += 1
    }
  }

  /// Chunk `index`, only to look at (its identity, its arena's size), for tests.
  func chunkForReading(_ index: Int) -> KeyListChunk { chunk(index) }

  /// The address of chunk `index`, which tells it apart from the chunks other columns hold.
  func chunkAddress(_ index: Int) -> UnsafeRawPointer { UnsafeRawPointer(directory.address(index)) }

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

  /// Grows the column to `count` rows, each holding the empty list.
  ///
  /// The new rows of the last chunk must be empty for this column alone: when it shares that
  /// chunk, it claims them (see the type's discussion), or copies the chunk if another column
  /// took them first. A new chunk's arena is sized from the last chunk's keys, which this column
  /// owns, claimed or holds whole (then nobody can claim any of its rows).
  override func grow(to count: Int) {
    guard count > rowCount else { return }
    if rowCount & AnyColumn.chunkMask != 0 { takeTail(rowCount &>> AnyColumn.chunkShift) }
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
    let index = row &>> AnyColumn.chunkShift
    if index != claimedChunk && !holdsMoreRows(of: index, than: older)
      && directory.absorb(index, from: newer.directory, over: older.directory)
    {
      return
    }
    copyValue(from: newer, row: row)
  }

  /// Whether this column holds more rows of chunk `index` than `older`: then it may have
  /// written the later ones in place (a claim, see ``grow(to:)``) although it holds `older`'s
  /// very chunk, so the chunk's identity does not show that it wrote nothing.
  private func holdsMoreRows(of index: Int, than older: KeyListColumn) -> Bool {
    let end = (index + 1) &<< AnyColumn.chunkShift
    return Swift.min(rowCount, end) > Swift.min(older.rowCount, end)
  }

  override func copy() -> AnyColumn { KeyListColumn(sharing: self) }

  override func freeze() {
    // A published column, kept by a newer version, is read by other threads: only read it.
    releaseTail()
    if !directory.isFrozen { directory.freeze() }
  }

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
