/// A column of one attribute in one table: type-erased face of ``Column``.
///
/// The engine keeps values unboxed in ``Column`` subclasses; this base class gives the dynamic
/// API (the runner, snapshots, rebasing a save) access without knowing the element type.
public class AnyColumn: @unchecked Sendable {
  // @unchecked Sendable: a column is mutated only by the session that owns its table; a column
  // reachable from a published StoreVersion is never mutated again (sessions copy first).

  /// Rows held in each chunk; chunks are the unit of copy-on-write.
  public static let chunkShift = 10
  /// Mask of a row's index inside its chunk.
  public static let chunkMask = (1 << chunkShift) - 1
  /// Rows in each chunk: a chunk's `capacity`, without the generic class's metadata
  /// lookup that unspecialized code pays for a static of a generic class.
  static var chunkRows: Int { 1 << chunkShift }

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
  /// Copies the value at `fromRow` of `other` (a column of the same type) into `toRow`.
  public func copyValue(from other: AnyColumn, fromRow: Int, toRow: Int) { fatalError("abstract") }
  /// Whether `row` holds the same value here and in `other` (a column of the same type).
  ///
  /// - Complexity: O(1) when both share the row's chunk, else one comparison.
  func hasSameValue(at row: Int, as other: AnyColumn) -> Bool { fatalError("abstract") }
  /// Whether `row` holds the same value here and in `other` without boxing either value;
  /// `false` when `other` is a column of another type.
  ///
  /// - Complexity: O(1) when both share the row's chunk, else one comparison.
  public func holdsSameValue(at row: Int, as other: AnyColumn) -> Bool {
    type(of: self) == type(of: other) && hasSameValue(at: row, as: other)
  }
  /// Grows the column to `count` rows filled with the placeholder value.
  func grow(to count: Int) { fatalError("abstract") }
  /// Resets `row` to the placeholder value, releasing what it held.
  func clear(row: Int) { fatalError("abstract") }
  /// Resets `rows` (ascending, no repeats) to the placeholder value.
  func clear(rows: [Int]) {
    for row in rows { clear(row: row) }
  }
  /// A new column object sharing this one's chunks (copy-on-write).
  func copy() -> AnyColumn { fatalError("abstract") }
  /// Makes the next write to any chunk check whether another column shares it; called before
  /// the column's table is published, after which it is never written.
  func freeze() { fatalError("abstract") }

  /// Whether `other` (a column of the same type) holds exactly this column's rows in the same
  /// chunks: neither wrote since one was copied from the other.
  ///
  /// - Complexity: O(1).
  func sharesAllChunks(with other: AnyColumn) -> Bool { false }
  /// Makes `row` hold its value in `newer` (this column's counterpart in a newer published
  /// version whose other rows of the chunk hold what they hold in `older`, the version this
  /// column was copied from): takes `newer`'s whole chunk when this column has not written to
  /// the row's chunk, else copies the value.
  func absorb(row: Int, from newer: AnyColumn, over older: AnyColumn) {
    copyValue(from: newer, row: row)
  }
  /// Copies of the chunks from index `first` on that this column holds alone, when there are
  /// at least `minimum`, to ``install(_:)`` once every column has made its own (see
  /// ``Session/packAppendedChunks()``).
  func packedCopies(from first: Int, minimum: Int) -> PackedChunks { PackedChunks() }
  /// Puts the copies ``packedCopies(from:minimum:)`` made in place of their chunks.
  func install(_ copies: PackedChunks) {}
  /// The storage type of the elements.
  public var elementType: any ColumnValue.Type { fatalError("abstract") }
  /// The bytes one element takes in a chunk.
  public var elementStride: Int { fatalError("abstract") }
}

/// A column of unboxed values, split in fixed-size chunks that are copied on write.
///
/// A committed store version and the working copy of a session share chunks until one of them
/// writes; a write copies just the chunk it touches. Reads go through a table of chunk
/// addresses, so reading a value takes no reference count.
public final class Column<Element: ColumnValue>: AnyColumn, @unchecked Sendable {
  // @unchecked Sendable: see AnyColumn.

  /// The chunks, owned, with the address of each one's values (``base(_:)``).
  @exclusivity(unchecked) @usableFromInline var directory: ChunkDirectory
  @exclusivity(unchecked) @usableFromInline var rowCount: Int
  /// For `String` and `String?`: the values as UTF-8 arenas (the element chunks stay empty).
  @usableFromInline let strings: StringColumnStorage?
  /// The shared chunk whose rows from ``claimedFrom`` on this column claimed, to append to it
  /// in place; -1 for none. See ``grow(to:)``.
  @exclusivity(unchecked) @usableFromInline var claimedChunk = -1
  /// The first row this column may write in place in ``claimedChunk``.
  @exclusivity(unchecked) @usableFromInline var claimedFrom = 0

  /// An empty column.
  public override init() {
    directory = ChunkDirectory()
    rowCount = 0
    strings =
      Element.storesUTF8 ? StringColumnStorage(isOptional: Element.self == String?.self) : nil
  }

  private init(sharing other: Column<Element>) {
    other.releaseTail()
    directory = ChunkDirectory(sharing: other.directory)
    rowCount = other.rowCount
    strings = other.strings.map { StringColumnStorage(sharing: $0) }
  }

  deinit {
    // A working column dropped with a claim (a rollback, a replay): nobody else saw its rows.
    if claimedChunk >= 0 { abandonClaim() }
    directory.deallocate()
  }

  /// The address of chunk `index`'s values.
  ///
  /// - Complexity: O(1), without a reference count.
  @inlinable @inline(__always)
  func base(_ index: Int) -> UnsafeMutablePointer<Element> {
    directory.address(index).assumingMemoryBound(to: Element.self)
  }

  /// The number of rows.
  public override var count: Int { rowCount }

  /// The value at `row`.
  ///
  /// - Complexity: O(1); a write copies the row's chunk first if another column shares it.
  @inlinable @inline(__always)
  public subscript(row: Int) -> Element {
    get {
      precondition(row >= 0 && row < rowCount, "row \(row) out of range")
      if Element.storesUTF8 { return stringValue(at: row) }
      return base(row &>> AnyColumn.chunkShift)[row & AnyColumn.chunkMask]
    }
    set {
      precondition(row >= 0 && row < rowCount, "row \(row) out of range")
      if Element.storesUTF8 { return setString(newValue, at: row) }
      let index = row &>> AnyColumn.chunkShift
      if !directory.owns(index) && (index != claimedChunk || row < claimedFrom) {
        unshare(index)
      }
      base(index)[row & AnyColumn.chunkMask] = newValue
    }
  }

  /// Gives chunk `index` to this column alone, copying its values if another column shares it.
  ///
  /// The copy takes the rows below this column's count: a shared chunk's later rows belong to
  /// whichever column claimed them. A claim on the chunk ends (the chunk copied keeps it, so
  /// its rows this column wrote are never claimed again).
  @usableFromInline
  func unshare(_ index: Int) {
    let prefix = rowCount - index &<< AnyColumn.chunkShift
    let abandoned = index == claimedChunk ? claimedFrom - index &<< AnyColumn.chunkShift : nil
    if abandoned != nil { claimedChunk = -1 }
    let address = directory.address(index)
    directory.own(index) {
      let chunk = unsafeDowncast($0, to: ColumnChunk<Element>.self)
      let copy = chunk.clone(prefix: prefix)
      // The copy has the rows this column appended in place; the chunk gets its placeholders
      // back, claimable again.
      if let abandoned { chunk.abandonClaim(from: abandoned, to: prefix) }
      return (copy, UnsafeMutableRawPointer(copy.base))
    }
    if _isPOD(Element.self) && directory.address(index) == address
      && prefix < AnyColumn.chunkRows
    {
      // Kept without a copy (no other column holds it any more): rows past this column's
      // count may hold what a version that is gone appended in place.
      (base(index) + prefix).update(
        repeating: Element.placeholder, count: AnyColumn.chunkRows - prefix)
    }
  }

  /// Makes the rows of chunk `index` from this column's count on writable, before the column
  /// grows into them: claims them in place when the chunk is shared and they are free from
  /// there (no copy; the versions sharing the chunk hold fewer rows and never read them), else
  /// copies the chunk.
  private func takeTail(_ index: Int) {
    if directory.owns(index) || index == claimedChunk { return }
    if claimedChunk >= 0 { releaseClaim() }
    let chunk = unsafeDowncast(directory.chunk(index), to: ColumnChunk<Element>.self)
    if chunk.claim(from: rowCount & AnyColumn.chunkMask) {
      claimedChunk = index
      claimedFrom = rowCount
    } else {
      unshare(index)
    }
  }

  /// Ends this column's claim without keeping what it wrote in place: those rows get the
  /// placeholder back and can be claimed again.
  private func abandonClaim() {
    let start = claimedChunk &<< AnyColumn.chunkShift
    unsafeDowncast(directory.chunk(claimedChunk), to: ColumnChunk<Element>.self)
      .abandonClaim(from: claimedFrom - start, to: rowCount - start)
    claimedChunk = -1
  }

  /// Ends this column's claim, letting the rows past its count be claimed again.
  private func releaseClaim() {
    let start = claimedChunk &<< AnyColumn.chunkShift
    unsafeDowncast(directory.chunk(claimedChunk), to: ColumnChunk<Element>.self)
      .release(from: Swift.min(rowCount - start, AnyColumn.chunkRows))
    claimedChunk = -1
  }

  /// Before this column's chunks are shared (a copy, a freeze): ends its claim, and lets the
  /// rows of its last chunk past its count be claimed when it owned that chunk alone. Writes
  /// nothing on a column that neither owns nor claimed a chunk (a published one).
  func releaseTail() {
    if claimedChunk >= 0 { releaseClaim() }
    let tail = rowCount &>> AnyColumn.chunkShift
    if rowCount & AnyColumn.chunkMask != 0 && strings == nil && directory.owns(tail) {
      unsafeDowncast(directory.chunk(tail), to: ColumnChunk<Element>.self)
        .release(from: rowCount & AnyColumn.chunkMask)
    }
  }

  /// Appends a value as a new last row.
  ///
  /// - Complexity: Amortized O(1).
  public func append(_ value: Element) {
    grow(to: rowCount + 1)
    self[rowCount - 1] = value
  }

  /// Calls `body` with each chunk's values in row order, and the row of the chunk's first value.
  @inlinable
  public func forEachChunk(_ body: (Int, UnsafeBufferPointer<Element>) throws -> Void) rethrows {
    if Element.storesUTF8 { return try forEachStringChunk(body) }
    var start = 0
    var index = 0
    while start < rowCount {
      let count = min(rowCount - start, 1 << AnyColumn.chunkShift)
      try body(start, UnsafeBufferPointer(start: base(index), count: count))
      start += count
      index += 1
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

  public override func copyValue(from other: AnyColumn, fromRow: Int, toRow: Int) {
    self[toRow] = unsafeDowncast(other, to: Column<Element>.self)[fromRow]
  }

  override func hasSameValue(at row: Int, as other: AnyColumn) -> Bool {
    let other = unsafeDowncast(other, to: Column<Element>.self)
    guard row < rowCount && row < other.rowCount else { return false }
    if let strings, let others = other.strings { return strings.hasSameValue(at: row, as: others) }
    let index = row &>> AnyColumn.chunkShift
    if index < directory.count && index < other.directory.count
      && directory.chunk(index) === other.directory.chunk(index)
    {
      return true
    }
    let (mine, theirs) = (self[row], other[row])
    // A value unequal to itself (a `NaN`) on both sides is the same value: a table copied
    // and written elsewhere in the chunk (objects loaded around it) still holds it.
    return mine == theirs || (mine != mine && theirs != theirs)
  }

  override func grow(to count: Int) {
    guard count > rowCount else { return }
    if strings == nil && rowCount & AnyColumn.chunkMask != 0 {
      // The new rows of the last chunk must hold the placeholder for this column alone.
      takeTail(rowCount &>> AnyColumn.chunkShift)
    }
    // Within the last chunk (the common case, one row per insert): no chunk to add.
    if rowCount > 0
      && (count - 1) &>> AnyColumn.chunkShift == (rowCount - 1) &>> AnyColumn.chunkShift
    {
      rowCount = count
      return
    }
    let needed = (count + AnyColumn.chunkRows - 1) >> AnyColumn.chunkShift
    if let strings {
      strings.grow(toChunks: needed)
      rowCount = count
      return
    }
    while directory.count < needed {
      let chunk = ColumnChunk<Element>.make()
      directory.append(chunk, address: UnsafeMutableRawPointer(chunk.base))
    }
    rowCount = count
  }

  override func clear(row: Int) { Element.clear(row: row, in: self) }

  /// Resets `rows` (ascending, no repeats) to the placeholder a chunk at a time: each chunk is
  /// made writable once, and a plain value (no reference in it) is written as its bytes.
  ///
  /// A save deleting many objects clears every column of their rows: through the generic
  /// subscript, one row cost about 150 instructions (a witness call, a chunk lookup and a
  /// value-witness assignment each).
  override func clear(rows: [Int]) {
    if let strings { return strings.clear(rows: rows) }
    rows.withUnsafeBufferPointer { rows in
      var start = 0
      while start < rows.count {
        let index = rows[start] &>> AnyColumn.chunkShift
        var end = start &+ 1
        while end < rows.count && rows[end] &>> AnyColumn.chunkShift == index { end &+= 1 }
        clear(UnsafeBufferPointer(rebasing: rows[start..<end]), inChunk: index)
        start = end
      }
    }
  }

  /// Resets `rows`, all of chunk `index` and below the column's count, to the placeholder.
  private func clear(_ rows: UnsafeBufferPointer<Int>, inChunk index: Int) {
    precondition(rows.last! < rowCount, "row \(rows.last!) out of range")
    // The same test as the subscript's setter: rows this column claimed are written in place.
    if !directory.owns(index) && (index != claimedChunk || rows.first! < claimedFrom) {
      unshare(index)
    }
    let values = base(index)
    guard _isPOD(Element.self) else {
      let placeholder = Element.placeholder
      for row in rows { values[row & AnyColumn.chunkMask] = placeholder }
      return
    }
    // Written as raw bytes (`storeBytes` may write memory bound to any plain type): the
    // placeholder's first 8 and 16 bytes as words, the rest byte by byte.
    withUnsafeBytes(of: Element.placeholder) { placeholder in
      let raw = UnsafeMutableRawPointer(values)
      let stride = MemoryLayout<Element>.stride
      let size = placeholder.count
      let words = size / 8
      let first = words > 0 ? placeholder.loadUnaligned(as: UInt64.self) : 0
      let second = words > 1 ? placeholder.loadUnaligned(fromByteOffset: 8, as: UInt64.self) : 0
      for row in rows {
        let value = raw + (row & AnyColumn.chunkMask) &* stride
        if words > 0 { value.storeBytes(of: first, as: UInt64.self) }
        if words > 1 { value.storeBytes(of: second, toByteOffset: 8, as: UInt64.self) }
        var byte = Swift.min(words, 2) &* 8
        while byte < size {
          value.storeBytes(of: placeholder[byte], toByteOffset: byte, as: UInt8.self)
          byte &+= 1
        }
      }
    }
  }

  override func copy() -> AnyColumn { Column(sharing: self) }

  override func freeze() {
    // A published column, kept by a newer version, is read by other threads: only read it.
    releaseTail()
    if !directory.isFrozen { directory.freeze() }
    strings?.freeze()
  }

  override func absorb(row: Int, from newer: AnyColumn, over older: AnyColumn) {
    let newer = unsafeDowncast(newer, to: Column<Element>.self)
    let older = unsafeDowncast(older, to: Column<Element>.self)
    let index = row &>> AnyColumn.chunkShift
    if let strings, let newerStrings = newer.strings, let olderStrings = older.strings {
      if strings.absorbChunk(index, from: newerStrings, over: olderStrings) { return }
    } else if !holdsMoreRows(of: index, than: older)
      && directory.absorb(index, from: newer.directory, over: older.directory)
    {
      return
    }
    self[row] = newer[row]
  }

  /// Whether this column holds more rows of chunk `index` than `older`: then it may have
  /// written the later ones in place (a claim, see ``grow(to:)``) although it holds `older`'s
  /// very chunk, so the chunk's identity does not show that it wrote nothing.
  private func holdsMoreRows(of index: Int, than older: Column<Element>) -> Bool {
    let end = (index + 1) &<< AnyColumn.chunkShift
    return Swift.min(rowCount, end) > Swift.min(older.rowCount, end)
  }

  override func sharesAllChunks(with other: AnyColumn) -> Bool {
    // Compares the classes instead of `as? Column<Element>`, which looks the class up from
    // `Element` in the unspecialized code a type-erased call runs.
    guard ObjectIdentifier(type(of: other)) == ObjectIdentifier(type(of: self)) else {
      return false
    }
    let other = unsafeDowncast(other, to: Column<Element>.self)
    if let strings, let others = other.strings {
      return rowCount == other.rowCount && strings.sharesAllChunks(with: others)
    }
    return rowCount == other.rowCount && directory.sharesAllChunks(with: other.directory)
  }

  override func packedCopies(from first: Int, minimum: Int) -> PackedChunks {
    if let strings { return strings.packedCopies(from: first, minimum: minimum) }
    return directory.packedCopies(of: directory.ownedChunks(from: first, minimum: minimum)) {
      let copy = unsafeDowncast($0, to: ColumnChunk<Element>.self).clone()
      return (copy, UnsafeMutableRawPointer(copy.base))
    }
  }

  override func install(_ copies: PackedChunks) {
    if let strings { return strings.install(copies) }
    directory.install(copies)
  }

  public override var elementType: any ColumnValue.Type { Element.self }

  public override var elementStride: Int { MemoryLayout<Element>.stride }
}
