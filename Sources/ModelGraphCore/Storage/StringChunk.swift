/// The strings of one chunk of rows as UTF-8 in one byte arena, so a scan reads contiguous
/// bytes instead of one `String` per row.
///
/// Row `i` holds the bytes `offsets[i] ..< offsets[i + 1]`; rows past ``filled`` are empty and
/// their offsets are implied (all equal to ``used``), so writing rows in order appends. A write
/// to an earlier row moves the bytes after it. A bit per row records a non-ASCII or
/// carriage-return byte (where bytes and characters disagree), another a `nil` (optional
/// strings). Like ``ColumnChunk``, a chunk shared between columns is never written: the writer
/// takes a ``clone()`` first.
///
/// A value longer than the inline limit (``inlineLimit`` unless a test lowers it) is held out of
/// line, as its `String`: its arena span is empty and it is never simple, so code that reads the
/// arena only for simple rows decodes it through ``string(_:)``. The arena then never passes the
/// 4 GiB its 32-bit offsets reach, and a string of any length is kept.
///
/// The bitmaps, the offsets and the arena share one allocation: a chunk is two (the object and
/// that block).
final class StringChunk: @unchecked Sendable {
  // @unchecked Sendable: written only by the column that owns it alone (see AnyColumn).

  /// Rows in a chunk.
  static var capacity: Int { 1 << AnyColumn.chunkShift }
  private static var words: Int { capacity / 64 }
  /// The longest value held in the arena: a full chunk of such values stays within 4 GiB.
  static var inlineLimit: Int { Int(UInt32.max) / capacity }

  /// The block's layout: the `nil` bitmap, the complex bitmap, `capacity + 1` offsets, then
  /// the arena.
  private static var complexStart: Int { words * 8 }
  private static var offsetsStart: Int { 2 * words * 8 }
  private static var arenaStart: Int { offsetsStart + (capacity + 1) * 4 }

  // Written only by the column that owns the chunk alone, as `Column`'s storage: no dynamic
  // exclusivity checks on the properties below, which every string write reads.
  @exclusivity(unchecked) private var block: UnsafeMutableRawPointer
  /// The arena's size: `used` bytes of it are in use.
  @exclusivity(unchecked) private(set) var byteCapacity: Int
  /// The bytes in use.
  @exclusivity(unchecked) private(set) var used: Int
  /// Rows `0 ..< filled` have valid offsets; later rows are empty.
  @exclusivity(unchecked) private(set) var filled: Int
  /// The values held out of line, by row.
  @exclusivity(unchecked) private var large: [Int: String] = [:]

  /// `capacity + 1` start offsets; entries past `filled` are stale (the row is empty).
  @inline(__always)
  var offsets: UnsafeMutablePointer<UInt32> {
    (block + Self.offsetsStart).assumingMemoryBound(to: UInt32.self)
  }
  /// The arena: `used` bytes of `byteCapacity`.
  @inline(__always)
  var bytes: UnsafeMutablePointer<UInt8> {
    (block + Self.arenaStart).assumingMemoryBound(to: UInt8.self)
  }
  /// Bit per row: the row's bytes are not simple ASCII in the arena (a byte ≥ 0x80, a carriage
  /// return, or a value held out of line).
  @inline(__always)
  private var complex: UnsafeMutablePointer<UInt64> {
    (block + Self.complexStart).assumingMemoryBound(to: UInt64.self)
  }
  /// Bit per row: the row holds `nil`.
  @inline(__always)
  private var nils: UnsafeMutablePointer<UInt64> { block.assumingMemoryBound(to: UInt64.self) }

  /// A chunk whose every row is `nil` (`isOptional`) or the empty string.
  init(isOptional: Bool = false, byteCapacity: Int = 0) {
    self.byteCapacity = byteCapacity
    block = Self.allocateBlock(byteCapacity: byteCapacity)
    used = 0
    filled = 0
    let bitmaps = block.assumingMemoryBound(to: UInt64.self)
    bitmaps.initialize(repeating: isOptional ? ~0 : 0, count: Self.words)
    (bitmaps + Self.words).initialize(repeating: 0, count: Self.words)
    offsets[0] = 0
  }

  deinit { block.deallocate() }

  /// A block for an arena of `byteCapacity` bytes, its parts bound to their types.
  private static func allocateBlock(byteCapacity: Int) -> UnsafeMutableRawPointer {
    let block = UnsafeMutableRawPointer.allocate(
      byteCount: arenaStart + byteCapacity, alignment: MemoryLayout<UInt64>.alignment)
    block.bindMemory(to: UInt64.self, capacity: 2 * words)
    (block + offsetsStart).bindMemory(to: UInt32.self, capacity: capacity + 1)
    (block + arenaStart).bindMemory(to: UInt8.self, capacity: byteCapacity)
    return block
  }

  /// A chunk holding a copy of this one's rows, with room in its arena for a small write
  /// (``cloneSlack(_:)``): a clone is made to be written, and an arena without room would be
  /// copied again, at twice the size, by that very write.
  ///
  /// - Parameter spare: Whether to leave that room; a copy made only to be kept (packing a
  ///   bulk insert's chunks) leaves none.
  func clone(spare: Bool = true) -> StringChunk {
    let copy = StringChunk(byteCapacity: used + (spare ? Self.cloneSlack(used) : 0))
    copy.block.copyMemory(from: block, byteCount: Self.offsetsStart + (filled + 1) * 4)
    copy.bytes.update(from: bytes, count: used)
    copy.used = used
    copy.filled = filled
    copy.large = large
    return copy
  }

  /// The spare bytes a clone of a chunk using `used` bytes gets: a sixteenth, at least 64.
  static func cloneSlack(_ used: Int) -> Int { max(64, used / 16) }

  /// The start offset of `row`'s bytes in the arena and their count (empty for a value held
  /// out of line).
  @inline(__always)
  func span(_ row: Int) -> (start: Int, count: Int) {
    guard row < filled else { return (used, 0) }
    let start = Int(offsets[row])
    return (start, Int(offsets[row + 1]) - start)
  }

  /// Whether every row holds simple ASCII bytes in the arena (none holds `nil`, a non-ASCII
  /// byte, a carriage return or a value held out of line).
  ///
  /// - Complexity: O(rows / 64).
  var holdsOnlySimpleRows: Bool {
    var word = 0
    var rows = filled
    while rows > 0 {
      let mask: UInt64 = rows >= 64 ? ~0 : (1 &<< UInt64(rows)) &- 1
      if (nils[word] | complex[word]) & mask != 0 { return false }
      word &+= 1
      rows &-= 64
    }
    return true
  }

  /// Whether `row` holds `nil`.
  @inline(__always)
  func isNil(_ row: Int) -> Bool { nils[row &>> 6] & (1 &<< UInt64(row & 63)) != 0 }

  /// Whether `row`'s bytes are simple ASCII (no byte ≥ 0x80, no carriage return) in the arena.
  @inline(__always)
  func isSimple(_ row: Int) -> Bool { complex[row &>> 6] & (1 &<< UInt64(row & 63)) == 0 }

  /// Whether `row`'s value is held out of line: not simple, yet no bytes in the arena.
  @inline(__always)
  func isOutOfLine(_ row: Int) -> Bool { isOutOfLine(row, count: span(row).count) }

  /// Whether `row`, whose arena span holds `count` bytes, is held out of line.
  @inline(__always)
  private func isOutOfLine(_ row: Int, count: Int) -> Bool { count == 0 && !isSimple(row) }

  /// The number of UTF-8 bytes of `row`'s value, wherever it is held.
  @inline(__always)
  func utf8Count(_ row: Int) -> Int {
    let count = span(row).count
    if isOutOfLine(row, count: count) { return large[row].unsafelyUnwrapped.utf8.count }
    return count
  }

  /// The arena offsets of rows `0 ..< rows` (row `r`'s bytes are `offsets[r] ..< offsets[r + 1]`),
  /// when every one of those rows holds its value's bytes there (none is held out of line, none
  /// is past the rows filled); otherwise `nil`. Valid until the chunk next changes.
  @inline(__always)
  func inlineOffsets(rows: Int) -> UnsafePointer<UInt32>? {
    guard rows <= filled, large.isEmpty else { return nil }
    return UnsafePointer(offsets)
  }

  /// Calls `body` with `row`'s UTF-8 bytes, wherever they are held.
  @inline(__always)
  func withBytes<R>(_ row: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    let (start, count) = span(row)
    if isOutOfLine(row, count: count) {
      var value = large[row].unsafelyUnwrapped
      return try value.withUTF8(body)
    }
    return try body(UnsafeBufferPointer(start: bytes + start, count: count))
  }

  /// The string at `row` (`""` for `nil`).
  func string(_ row: Int) -> String {
    let (start, count) = span(row)
    if isOutOfLine(row, count: count) { return large[row].unsafelyUnwrapped }
    return String(decoding: UnsafeBufferPointer(start: bytes + start, count: count), as: UTF8.self)
  }

  /// The optional string at `row`.
  func optionalString(_ row: Int) -> String? {
    isNil(row) ? nil : string(row)
  }

  /// Stores `value` at `row` (`nil` stores the empty string flagged as `nil`); a value of more
  /// than `inlineLimit` bytes is held out of line.
  func set(_ value: String?, at row: Int, inlineLimit: Int = StringChunk.inlineLimit) {
    precondition(row >= 0 && row < Self.capacity, "row \(row) out of chunk")
    setBit(nils, row, value == nil)
    guard var string = value else {
      return replace(row, with: UnsafeBufferPointer(start: nil, count: 0))
    }
    if string.utf8.count > inlineLimit { return setOutOfLine(string, at: row) }
    string.withUTF8 { replace(row, with: $0) }
  }

  /// Stores the UTF-8 bytes `source` (valid UTF-8) at `row`, as a value (not `nil`); more than
  /// `inlineLimit` bytes are held out of line.
  func setBytes(
    _ source: UnsafeBufferPointer<UInt8>, at row: Int, inlineLimit: Int = StringChunk.inlineLimit
  ) {
    precondition(row >= 0 && row < Self.capacity, "row \(row) out of chunk")
    setBit(nils, row, false)
    if source.count > inlineLimit {
      return setOutOfLine(String(decoding: source, as: UTF8.self), at: row)
    }
    replace(row, with: source)
  }

  /// Fills this chunk, which holds no bytes yet, with rows `0 ..< rows` at once (for loading a
  /// file): `fill` gets the offsets (`offsets[0]` is 0) and an arena of `byteCount` bytes, and
  /// writes every byte and each row's end at `offsets[row + 1]` (ascending, the last
  /// `byteCount`). The bytes are valid UTF-8, no row longer than the inline limit;
  /// `nilBits(word)` gives the `nil` flags of rows `64 * word ..< 64 * word + 64` (bit
  /// `row % 64` set for a row holding `nil`, with no bytes; the bits of rows from `rows` on are
  /// ignored, those rows keep their flags).
  func load(
    rows: Int, byteCount: Int, nilBits: (_ word: Int) -> UInt64,
    fill: (UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<UInt8>) -> Void
  ) {
    precondition(filled == 0 && used == 0 && large.isEmpty && rows <= Self.capacity)
    if byteCount > byteCapacity { resize(to: byteCount) }
    offsets[0] = 0
    fill(offsets, bytes)
    used = byteCount
    filled = rows
    var word = 0
    while word &* 64 < rows {
      let remaining = rows &- word &* 64
      let mask: UInt64 = remaining >= 64 ? ~0 : (1 &<< UInt64(remaining)) &- 1
      nils[word] = (nils[word] & ~mask) | (nilBits(word) & mask)
      word += 1
    }
    guard Self.hasComplexBytes(UnsafeRawBufferPointer(start: bytes, count: byteCount)) else {
      return
    }
    for row in 0..<rows {
      let start = Int(offsets[row])
      let span = UnsafeRawBufferPointer(start: bytes + start, count: Int(offsets[row + 1]) - start)
      setBit(complex, row, Self.hasComplexBytes(span))
    }
  }

  /// Whether `bytes` holds a byte ≥ 0x80 or a carriage return, tested eight bytes at a time.
  private static func hasComplexBytes(_ bytes: UnsafeRawBufferPointer) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    var found: UInt64 = 0
    // A range loop over whole words (no overflow check per word), which the compiler vectorizes.
    let words = bytes.count / 8
    for index in 0..<words {
      let word = bytes.loadUnaligned(fromByteOffset: index &* 8, as: UInt64.self)
      // A zero byte of `word ^ 0x0D…` is a carriage return of `word`.
      let returns = word ^ (ones &* 0x0D)
      found |= word | ((returns &- ones) & ~returns)
    }
    for index in words * 8..<bytes.count {
      let byte = bytes[index]
      if byte >= 0x80 || byte == 0x0D { return true }
    }
    return found & highs != 0
  }

  /// Holds `value` out of line at `row`, whose arena span becomes empty.
  private func setOutOfLine(_ value: String, at row: Int) {
    replace(row, with: UnsafeBufferPointer(start: nil, count: 0))
    var value = value
    value.makeContiguousUTF8()
    large[row] = value
    setBit(complex, row, true)
  }

  /// The bytes rows `0 ..< rows` take in the arena.
  func byteCount(rows: Int) -> Int { rows >= filled ? used : Int(offsets[rows]) }

  /// Whether some row's value is held out of line.
  var hasOutOfLineValues: Bool { !large.isEmpty }

  /// The UTF-8 bytes of the values of rows `0 ..< rows`, in the arena or out of line.
  func valueBytes(rows: Int) -> Int {
    var total = byteCount(rows: rows)
    for (row, value) in large where row < rows { total += value.utf8.count }
    return total
  }

  /// Grows the arena to hold at least `count` bytes, for writes known to come.
  func reserveBytes(_ count: Int) { reserve(count) }

  /// Empties `rows` (ascending), flagged `nil` when `toNil`, moving each run of
  /// kept rows between two emptied ones with one copy and shifting its offsets in one loop.
  ///
  /// - Complexity: O(rows + rows and bytes after the first emptied row), with one copy per
  ///   run of kept rows rather than per row.
  func clear(_ rows: [Int], toNil: Bool) {
    let hadLarge = !large.isEmpty
    var held = 0
    for row in rows {
      setBit(nils, row, toNil)
      setBit(complex, row, false)
      if hadLarge { large[row] = nil }
      if row < filled { held += 1 }
    }
    // Row `rows[k]`'s offset already holds its new start (the previous run shifted it) and
    // the next offset its old end, so the bytes removed up to its end are their difference.
    var removed = 0
    var k = 0
    while k < held {
      let row = rows[k]
      // The next emptied row (a repeat of `row` is skipped).
      var next = k + 1
      while next < held && rows[next] <= row { next += 1 }
      k = next
      let end = next < held ? rows[next] : filled
      let oldEnd = Int(offsets[row + 1])
      removed = oldEnd - Int(offsets[row])
      guard removed > 0 else { continue }
      // The kept rows `row + 1 ..< end`: their bytes move down by everything removed so far.
      let runEnd = Int(offsets[end])
      if runEnd > oldEnd {
        UnsafeMutableRawPointer(bytes + oldEnd - removed).copyMemory(
          from: bytes + oldEnd, byteCount: runEnd - oldEnd)
      }
      let shift = UInt32(truncatingIfNeeded: removed)
      for shifted in (row + 1)...end { offsets[shifted] &-= shift }
    }
    used -= removed
  }

  /// Replaces `row`'s bytes with `source` (at most the inline limit), moving the bytes of later
  /// rows.
  private func replace(_ row: Int, with source: UnsafeBufferPointer<UInt8>) {
    if !large.isEmpty { large[row] = nil }
    var flags: UInt8 = 0
    var returns = false
    for byte in source {
      flags |= byte
      returns = returns || byte == 0x0D
    }
    setBit(complex, row, flags >= 0x80 || returns)
    if row >= filled {
      guard !source.isEmpty else { return }
      // Before the offsets are written: growing moves only the filled rows' offsets.
      reserve(used + source.count)
      // Rows filled ..< row are empty: they start (and end) where the arena ends.
      for index in filled...row { offsets[index] = UInt32(truncatingIfNeeded: used) }
      (bytes + used).update(from: source.baseAddress!, count: source.count)
      used += source.count
      offsets[row + 1] = UInt32(truncatingIfNeeded: used)
      filled = row + 1
      // Rows written in order (inserts) filled the chunk: give back the arena's spare room.
      if filled == Self.capacity { shrinkToFit() }
      return
    }
    let start = Int(offsets[row])
    let end = Int(offsets[row + 1])
    let delta = source.count - (end - start)
    if delta != 0 {
      reserve(used + delta)
      let tail = used - end
      if tail > 0 {
        UnsafeMutableRawPointer(bytes + end + delta).copyMemory(from: bytes + end, byteCount: tail)
      }
      used += delta
      // Wrapping 32-bit adds (a negative `delta` too), which the compiler vectorizes: the
      // offsets of every later row move by the same amount.
      let shift = UInt32(truncatingIfNeeded: delta)
      let later = UnsafeMutableBufferPointer(start: offsets + row + 1, count: filled - row)
      for index in later.indices { later[index] &+= shift }
    }
    if let base = source.baseAddress { (bytes + start).update(from: base, count: source.count) }
  }

  /// Reallocates the arena to exactly the bytes in use, when more than an eighth is spare.
  func shrinkToFit() {
    guard byteCapacity - used > used / 8 else { return }
    resize(to: used)
  }

  /// Grows the arena to hold at least `count` bytes.
  private func reserve(_ count: Int) {
    guard count > byteCapacity else { return }
    resize(to: max(count, byteCapacity * 2, 64))
  }

  /// Moves the bitmaps, the filled offsets and the bytes in use to a block whose arena holds
  /// `capacity` bytes.
  private func resize(to capacity: Int) {
    let moved = Self.allocateBlock(byteCapacity: capacity)
    moved.copyMemory(from: block, byteCount: Self.offsetsStart + (filled + 1) * 4)
    (moved + Self.arenaStart).copyMemory(from: bytes, byteCount: used)
    block.deallocate()
    block = moved
    byteCapacity = capacity
  }

  @inline(__always)
  private func setBit(_ words: UnsafeMutablePointer<UInt64>, _ row: Int, _ on: Bool) {
    let mask: UInt64 = 1 &<< UInt64(row & 63)
    if on { words[row &>> 6] |= mask } else { words[row &>> 6] &= ~mask }
  }
}
