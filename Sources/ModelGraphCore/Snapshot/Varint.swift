/// Unsigned LEB128 integers ("varints"), as format 6's compact layouts write them: seven bits a
/// byte, the lowest first, the high bit set on every byte but the last; at most ten bytes.
///
/// A layout writes its varints as one section: the section's length in bytes (8 bytes), then
/// the varints (and any fixed-width fields between them). A reader decodes the section with a
/// ``VarintCursor``, which checks every read against the section's end.
enum Varint {
  /// The most bytes a varint takes.
  static let maximumSize = 10

  /// The bytes `value` takes.
  @inline(__always)
  static func size(_ value: UInt64) -> Int {
    let bits = 64 &- (value | 1).leadingZeroBitCount
    return (bits &+ 6) / 7
  }

  /// Writes `value` at `offset` of `out` and returns the offset after it; `out` must have
  /// ``size(_:)`` bytes there.
  @inline(__always)
  static func store(_ value: UInt64, into out: UnsafeMutableRawBufferPointer, at offset: Int)
    -> Int
  {
    var value = value
    var offset = offset
    while value >= 0x80 {
      out[offset] = UInt8(truncatingIfNeeded: value) | 0x80
      value >>= 7
      offset &+= 1
    }
    out[offset] = UInt8(truncatingIfNeeded: value)
    return offset &+ 1
  }

  /// `value` with its sign moved to the lowest bit, so that small negative and positive values
  /// both take few bytes: 0, -1, 1, -2 … become 0, 1, 2, 3 ….
  @inline(__always)
  static func zigzag(_ value: Int64) -> UInt64 {
    UInt64(bitPattern: (value &<< 1) ^ (value >> 63))
  }

  /// The value ``zigzag(_:)`` made `code` of.
  @inline(__always)
  static func unzigzag(_ code: UInt64) -> Int64 {
    Int64(bitPattern: code >> 1) ^ (0 &- Int64(bitPattern: code & 1))
  }
}

/// Reads a section of varints and fixed-width fields, never past its end.
struct VarintCursor {
  /// The section.
  let bytes: UnsafeRawBufferPointer
  /// The offset of the next byte to read in ``bytes``.
  private(set) var position = 0

  init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

  /// Whether every byte of the section was read.
  var isAtEnd: Bool { position == bytes.count }

  /// The next varint; `nil` when the section ends inside it, or it has more than ten bytes or
  /// a value past 64 bits.
  @inline(__always)
  mutating func next() -> UInt64? {
    // Most varints of a layout are one byte: read inline, the rest out of line.
    if position < bytes.count {
      let byte = bytes[position]
      if byte < 0x80 {
        position &+= 1
        return UInt64(byte)
      }
    }
    return nextLong()
  }

  /// The next eight bytes as one little-endian word, when at least eight remain and each is a
  /// whole one-byte varint (below 0x80); otherwise `nil`, and nothing is read. Byte *k* of the
  /// word is the *k*-th varint.
  @inline(__always)
  mutating func nextEightSmall() -> UInt64? {
    guard bytes.count &- position >= 8 else { return nil }
    let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self))
    guard word & 0x8080_8080_8080_8080 == 0 else { return nil }
    position &+= 8
    return word
  }

  /// ``next()`` for a varint of more than one byte, or at the section's end.
  @inline(never)
  private mutating func nextLong() -> UInt64? {
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while position < bytes.count {
      let byte = bytes[position]
      position &+= 1
      // The tenth byte holds the 64th bit alone, and ends the varint.
      if shift == 63, byte > 1 { return nil }
      result |= UInt64(byte & 0x7F) << shift
      if byte & 0x80 == 0 { return result }
      shift &+= 7
    }
    return nil
  }

  /// The next little-endian `T`; `nil` when fewer bytes remain.
  @inline(__always)
  mutating func next<T: FixedWidthInteger>(_: T.Type) -> T? {
    let size = MemoryLayout<T>.size
    guard bytes.count &- position >= size else { return nil }
    defer { position &+= size }
    return T(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: T.self))
  }
}

extension ByteWriter {
  /// Appends a section of `size` bytes (its length, then the bytes) that `body` fills in.
  mutating func appendSection(size: Int, _ body: (UnsafeMutableRawBufferPointer) -> Void) {
    append(UInt64(size))
    appendUninitialized(size, body)
  }
}

extension ByteReader {
  /// Reads a section written by ``ByteWriter/appendSection(size:_:)``: a cursor over its bytes,
  /// and where they start in the block (for error offsets).
  mutating func readSection() throws -> (cursor: VarintCursor, start: Int) {
    let length = try readCount(minimumSize: 1)
    let start = position
    return (VarintCursor(try readBytes(length)), start)
  }
}
