/// The strings of one chunk of rows as UTF-8 in one byte arena, so a scan reads contiguous
/// bytes instead of one `String` per row.
///
/// Row `i` holds the bytes `offsets[i] ..< offsets[i + 1]`; rows past ``filled`` are empty and
/// their offsets are implied (all equal to ``used``), so writing rows in order appends. A write
/// to an earlier row moves the bytes after it. A bit per row records a non-ASCII or
/// carriage-return byte (where bytes and characters disagree), another a `nil` (optional
/// strings). Like ``ColumnChunk``, a chunk shared between columns is never written: the writer
/// takes a ``clone()`` first.
final class StringChunk: @unchecked Sendable {
  // @unchecked Sendable: written only by the column that owns it alone (see AnyColumn).

  /// Rows in a chunk.
  static var capacity: Int { 1 << AnyColumn.chunkShift }
  private static var words: Int { capacity / 64 }

  /// `capacity + 1` start offsets; entries past `filled` are stale (the row is empty).
  private(set) var offsets: UnsafeMutablePointer<UInt32>
  /// The arena: `used` bytes of `byteCapacity`.
  private(set) var bytes: UnsafeMutablePointer<UInt8>
  private(set) var byteCapacity: Int
  /// The bytes in use.
  private(set) var used: Int
  /// Rows `0 ..< filled` have valid offsets; later rows are empty.
  private(set) var filled: Int
  /// Bit per row: the row's bytes are not simple ASCII (a byte ≥ 0x80 or a carriage return).
  private(set) var complex: UnsafeMutablePointer<UInt64>
  /// Bit per row: the row holds `nil`.
  private(set) var nils: UnsafeMutablePointer<UInt64>

  /// A chunk whose every row is `nil` (`isOptional`) or the empty string.
  init(isOptional: Bool = false, byteCapacity: Int = 0) {
    offsets = .allocate(capacity: Self.capacity + 1)
    offsets.initialize(repeating: 0, count: Self.capacity + 1)
    self.byteCapacity = byteCapacity
    bytes = .allocate(capacity: max(byteCapacity, 1))
    used = 0
    filled = 0
    complex = .allocate(capacity: Self.words)
    complex.initialize(repeating: 0, count: Self.words)
    nils = .allocate(capacity: Self.words)
    nils.initialize(repeating: isOptional ? ~0 : 0, count: Self.words)
  }

  deinit {
    offsets.deallocate()
    bytes.deallocate()
    complex.deallocate()
    nils.deallocate()
  }

  /// A chunk holding a copy of this one's rows, with no spare arena capacity.
  func clone() -> StringChunk {
    let copy = StringChunk(byteCapacity: used)
    copy.offsets.update(from: offsets, count: filled + 1)
    copy.bytes.update(from: bytes, count: used)
    copy.used = used
    copy.filled = filled
    copy.complex.update(from: complex, count: Self.words)
    copy.nils.update(from: nils, count: Self.words)
    return copy
  }

  /// The start offset of `row`'s bytes and their count.
  @inline(__always)
  func span(_ row: Int) -> (start: Int, count: Int) {
    guard row < filled else { return (used, 0) }
    let start = Int(offsets[row])
    return (start, Int(offsets[row + 1]) - start)
  }

  /// Whether `row` holds `nil`.
  @inline(__always)
  func isNil(_ row: Int) -> Bool { nils[row &>> 6] & (1 &<< UInt64(row & 63)) != 0 }

  /// Whether `row`'s bytes are simple ASCII (no byte ≥ 0x80, no carriage return).
  @inline(__always)
  func isSimple(_ row: Int) -> Bool { complex[row &>> 6] & (1 &<< UInt64(row & 63)) == 0 }

  /// Calls `body` with `row`'s UTF-8 bytes.
  @inline(__always)
  func withBytes<R>(_ row: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    let (start, count) = span(row)
    return try body(UnsafeBufferPointer(start: bytes + start, count: count))
  }

  /// The string at `row` (`""` for `nil`).
  func string(_ row: Int) -> String {
    withBytes(row) { String(decoding: $0, as: UTF8.self) }
  }

  /// The optional string at `row`.
  func optionalString(_ row: Int) -> String? {
    isNil(row) ? nil : string(row)
  }

  /// Stores `value` at `row` (`nil` stores the empty string flagged as `nil`).
  func set(_ value: String?, at row: Int) {
    precondition(row >= 0 && row < Self.capacity, "row \(row) out of chunk")
    setBit(nils, row, value == nil)
    guard var string = value else {
      return replace(row, with: UnsafeBufferPointer(start: nil, count: 0))
    }
    string.withUTF8 { replace(row, with: $0) }
  }

  /// Stores the UTF-8 bytes `source` (valid UTF-8) at `row`, as a value (not `nil`).
  func setBytes(_ source: UnsafeBufferPointer<UInt8>, at row: Int) {
    precondition(row >= 0 && row < Self.capacity, "row \(row) out of chunk")
    setBit(nils, row, false)
    replace(row, with: source)
  }

  /// The bytes rows `0 ..< rows` take.
  func byteCount(rows: Int) -> Int { rows >= filled ? used : Int(offsets[rows]) }

  /// Grows the arena to hold at least `count` bytes, for writes known to come.
  func reserveBytes(_ count: Int) { reserve(count) }

  /// Empties `rows` (ascending), flagged `nil` when `toNil`, moving each kept row's bytes
  /// once.
  ///
  /// - Complexity: O(rows + bytes after the first row).
  func clear(_ rows: [Int], toNil: Bool) {
    for row in rows {
      setBit(nils, row, toNil)
      setBit(complex, row, false)
    }
    guard let first = rows.first, first < filled else { return }
    var write = Int(offsets[first])
    var oldStart = write
    var next = 0
    for row in first..<filled {
      let oldEnd = Int(offsets[row + 1])
      offsets[row] = UInt32(truncatingIfNeeded: write)
      while next < rows.count && rows[next] < row { next += 1 }
      if next < rows.count && rows[next] == row {
        next += 1
      } else if oldEnd > oldStart {
        if write != oldStart {
          UnsafeMutableRawPointer(bytes + write).copyMemory(
            from: bytes + oldStart, byteCount: oldEnd - oldStart)
        }
        write += oldEnd - oldStart
      }
      oldStart = oldEnd
    }
    offsets[filled] = UInt32(truncatingIfNeeded: write)
    used = write
  }

  /// Replaces `row`'s bytes with `source`, moving the bytes of later rows.
  private func replace(_ row: Int, with source: UnsafeBufferPointer<UInt8>) {
    var flags: UInt8 = 0
    var returns = false
    for byte in source {
      flags |= byte
      returns = returns || byte == 0x0D
    }
    setBit(complex, row, flags >= 0x80 || returns)
    if row >= filled {
      guard !source.isEmpty else { return }
      // Rows filled ..< row are empty: they start (and end) where the arena ends.
      for index in filled...row { offsets[index] = UInt32(truncatingIfNeeded: used) }
      reserve(used + source.count)
      (bytes + used).update(from: source.baseAddress!, count: source.count)
      used += source.count
      precondition(used <= Int(UInt32.max), "a chunk's strings exceed 4 GiB")
      offsets[row + 1] = UInt32(truncatingIfNeeded: used)
      filled = row + 1
      // Rows written in order (inserts) filled the chunk: give back the arena's spare room.
      if filled == Self.capacity { shrink() }
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
      precondition(used <= Int(UInt32.max), "a chunk's strings exceed 4 GiB")
      for index in (row + 1)...filled {
        offsets[index] = UInt32(truncatingIfNeeded: Int(offsets[index]) + delta)
      }
    }
    if let base = source.baseAddress { (bytes + start).update(from: base, count: source.count) }
  }

  /// Reallocates the arena to exactly the bytes in use, when more than an eighth is spare.
  private func shrink() {
    guard byteCapacity - used > used / 8 else { return }
    let fitted = UnsafeMutablePointer<UInt8>.allocate(capacity: max(used, 1))
    fitted.update(from: bytes, count: used)
    bytes.deallocate()
    bytes = fitted
    byteCapacity = used
  }

  /// Grows the arena to hold at least `count` bytes.
  private func reserve(_ count: Int) {
    guard count > byteCapacity else { return }
    let capacity = max(count, byteCapacity * 2, 64)
    let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    grown.update(from: bytes, count: used)
    bytes.deallocate()
    bytes = grown
    byteCapacity = capacity
  }

  @inline(__always)
  private func setBit(_ words: UnsafeMutablePointer<UInt64>, _ row: Int, _ on: Bool) {
    let mask: UInt64 = 1 &<< UInt64(row & 63)
    if on { words[row &>> 6] |= mask } else { words[row &>> 6] &= ~mask }
  }
}
