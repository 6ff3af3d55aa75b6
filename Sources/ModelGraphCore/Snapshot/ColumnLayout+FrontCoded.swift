/// Format 7's string layout (layout byte 1): the rows in groups of a column chunk's rows
/// (1,024; the last group may be shorter), each group written front-coded or plain, whichever
/// takes fewer bytes (plain when front coding would rebuild more than
/// ``frontCodedExpansionLimit`` times its bytes).
///
/// A group is a tag byte (0 plain, 1 front-coded), a section of varints, then its bytes. Plain:
/// each row's UTF-8 byte count, then every row's bytes (format 6's lengths, one group at a
/// time). Front-coded: per row, the length of the prefix it shares with the last non-empty
/// value before it in the group (0 when there is none) and the length of the rest; then every
/// row's rest. Names numbered in row order ("Trip 123456", "Trip 123457") share most of their
/// bytes with the row before. A shared prefix never ends inside a character, so each rest is
/// valid UTF-8 on its own. An absent or empty value shares nothing and is not the value the next
/// row shares with.
extension ColumnLayout {
  /// The most bytes a front-coded group rebuilds per byte it takes in the file (tag, section
  /// length, section and rests). A group that would rebuild more is written plain, and a
  /// reader refuses one that does: the strings of a file then take at most this many times
  /// its size in memory, as the reader's other checks bound the rest.
  static let frontCodedExpansionLimit = 16

  /// Writes the rows below `count` of `strings` in the front-coded layout (what follows the
  /// layout byte 1).
  static func encodeFrontCoded(
    _ strings: StringColumnStorage, count: Int, into writer: inout ByteWriter
  ) {
    let shift = AnyColumn.chunkShift
    let prefixes = UnsafeMutablePointer<UInt32>.allocate(capacity: 1 << shift)
    defer { prefixes.deallocate() }
    var row = 0
    while row < count {
      let rows = min(count - row, 1 << shift)
      let chunk = strings.chunk(row >> shift)
      // Rows past those the chunk filled are empty: only the filled ones are read.
      let filled = min(rows, chunk.filled)
      if let offsets = chunk.inlineOffsets(rows: filled) {
        encodeGroup(
          UnsafePointer(chunk.bytes), offsets: offsets, filled: filled, rows: rows,
          prefixes: prefixes, into: &writer)
      } else {
        // Some values are held out of line: the group's bytes are gathered into one buffer.
        var arena: [UInt8] = []
        arena.reserveCapacity(chunk.valueBytes(rows: rows))
        var ends = [0]
        ends.reserveCapacity(rows + 1)
        for index in 0..<rows {
          chunk.withBytes(index) { arena.append(contentsOf: $0) }
          ends.append(arena.count)
        }
        arena.withUnsafeBufferPointer { bytes in
          ends.withUnsafeBufferPointer { ends in
            encodeGroup(
              bytes.baseAddress, offsets: ends.baseAddress.unsafelyUnwrapped, filled: rows,
              rows: rows, prefixes: prefixes, into: &writer)
          }
        }
      }
      row += rows
    }
  }

  /// Writes one group: rows `0 ..< filled` hold the bytes `offsets[r] ..< offsets[r + 1]` of
  /// `base` (`offsets[0]` is 0), rows `filled ..< rows` are empty. `prefixes` has room for a
  /// chunk's rows.
  private static func encodeGroup<Offset: FixedWidthInteger>(
    _ base: UnsafePointer<UInt8>?, offsets: UnsafePointer<Offset>, filled: Int, rows: Int,
    prefixes: UnsafeMutablePointer<UInt32>, into writer: inout ByteWriter
  ) {
    // One pass finds each row's shared prefix and the size of both layouts.
    var plainSection = rows &- filled
    var frontSection = 2 &* (rows &- filled)
    var shared = 0
    var lastStart = 0
    var lastLength = 0
    for row in 0..<filled {
      let start = Int(truncatingIfNeeded: offsets[row])
      let length = Int(truncatingIfNeeded: offsets[row &+ 1]) &- start
      var prefix = 0
      if length > 0, let base {
        if lastLength > 0 {
          prefix = sharedPrefix(base + lastStart, count: lastLength, base + start, count: length)
        }
        lastStart = start
        lastLength = length
      }
      prefixes[row] = UInt32(truncatingIfNeeded: prefix)
      shared &+= prefix
      plainSection &+= varintSize(length)
      frontSection &+= varintSize(prefix) &+ varintSize(length &- prefix)
    }
    let bytes = Int(truncatingIfNeeded: offsets[filled])
    let frontBytes = 1 &+ 8 &+ frontSection &+ (bytes &- shared)
    let frontCoded =
      frontSection &+ (bytes &- shared) < plainSection &+ bytes
      && bytes <= frontCodedExpansionLimit &* frontBytes
    let section = frontCoded ? frontSection : plainSection
    let payload = frontCoded ? bytes &- shared : bytes
    writer.appendUninitialized(1 + 8 + section + payload) { out in
      out[0] = frontCoded ? 1 : 0
      out.storeBytes(of: UInt64(section).littleEndian, toByteOffset: 1, as: UInt64.self)
      var at = 9
      for row in 0..<filled {
        let length = UInt64(offsets[row &+ 1] &- offsets[row])
        if frontCoded {
          let prefix = UInt64(prefixes[row])
          at = Varint.store(prefix, into: out, at: at)
          at = Varint.store(length &- prefix, into: out, at: at)
        } else {
          at = Varint.store(length, into: out, at: at)
        }
      }
      // The empty rows' lengths are zero bytes, as `out` starts.
      at = 9 &+ section
      guard payload > 0, let base, let target = out.baseAddress else { return }
      if !frontCoded {
        (target + at).copyMemory(from: base, byteCount: bytes)
        return
      }
      let end = out.count
      for row in 0..<filled {
        let prefix = Int(prefixes[row])
        let start = Int(truncatingIfNeeded: offsets[row]) &+ prefix
        let rest = Int(truncatingIfNeeded: offsets[row &+ 1]) &- start
        guard rest > 0 else { continue }
        // A short rest is copied as two words when both sides have room: the bytes past it
        // are the next rests' place, written next.
        if rest <= 16, start &+ 16 <= bytes, at &+ 16 <= end {
          let source = UnsafeRawPointer(base + start)
          (target + at).storeBytes(
            of: source.loadUnaligned(as: UInt64.self), toByteOffset: 0, as: UInt64.self)
          (target + at).storeBytes(
            of: source.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8,
            as: UInt64.self)
        } else {
          (target + at).copyMemory(from: base + start, byteCount: rest)
        }
        at &+= rest
      }
    }
  }

  /// The bytes the varint of `value` (not negative) takes; most are one byte.
  @inline(__always)
  private static func varintSize(_ value: Int) -> Int {
    value < 0x80 ? 1 : Varint.size(UInt64(value))
  }

  /// The length of the longest prefix the `previous` and `value` bytes share that ends on a
  /// character boundary (both are valid UTF-8, so a boundary of one is a boundary of the other).
  /// Compared eight bytes at a time.
  @inline(__always)
  static func sharedPrefix(
    _ previous: UnsafePointer<UInt8>, count previousCount: Int, _ value: UnsafePointer<UInt8>,
    count: Int
  ) -> Int {
    let limit = min(previousCount, count)
    var shared = 0
    if limit >= 8 {
      // Word by word; the last word ends at `limit` (overlapping the one before), so no byte
      // is compared alone.
      while true {
        let at = min(shared, limit &- 8)
        let difference =
          UnsafeRawPointer(previous + at).loadUnaligned(as: UInt64.self)
          ^ UnsafeRawPointer(value + at).loadUnaligned(as: UInt64.self)
        if difference != 0 {
          // The first differing byte in memory order is the lowest of the little-endian word.
          shared = at &+ UInt64(littleEndian: difference).trailingZeroBitCount &>> 3
          break
        }
        if at == limit &- 8 {
          shared = limit
          break
        }
        shared = at &+ 8
      }
    } else {
      while shared < limit && previous[shared] == value[shared] { shared &+= 1 }
    }
    // Back to the start of the character the prefix would cut (a continuation byte is 10xxxxxx).
    while shared > 0 && shared < previousCount && previous[shared] & 0xC0 == 0x80 {
      shared &-= 1
    }
    return shared
  }
}
