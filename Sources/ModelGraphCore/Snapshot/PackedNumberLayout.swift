import Foundation

/// Format 7's layout of `Double` and `Date` columns (a `Date` is its seconds since 2001-01-01
/// as a `Double`): the rows in blocks of ``blockRows``, each written raw or, when every value
/// of the block is a decimal number with few digits after the point, as integers packed at a
/// fixed bit width (the idea of ALP, "Adaptive Lossless floating-Point compression", with
/// frame-of-reference bit packing).
///
/// A block is a tag byte, then for ``rawTag`` its values as 8 little-endian bytes each, and for
/// ``packedTag`` an exponent *e* (1 byte, at most ``maximumExponent``), a width *w* (1 byte, at
/// most 64), a base *b* (8 bytes, signed) and the block's rows as *w*-bit unsigned numbers
/// *d*, back to back from the lowest bit of the first byte (⌈rows × *w* / 8⌉ bytes, the unused
/// high bits of the last byte 0): row *k*'s value is `Double(b + d) / 10^e`. A writer packs a
/// block only when that gives back every value's exact bits (so `-0.0`, NaN, infinities and
/// values of more digits stay raw) and takes fewer bytes than raw.
enum PackedNumberLayout {
  /// The rows of a block (the last one holds the rest).
  static let blockRows = 1024
  /// The tag of a block written as raw values.
  static let rawTag: UInt8 = 0
  /// The tag of a block written as packed integers.
  static let packedTag: UInt8 = 1
  /// The largest decimal exponent of a packed block.
  static let maximumExponent = 4
  /// The powers of ten `10^e` for `e` in `0...maximumExponent`, each exact as a `Double`.
  static let powers: [Double] = [1, 10, 100, 1_000, 10_000]
  /// The largest magnitude of a scaled value: integers this large still convert to `Int64`,
  /// and the difference of two fits in 64 bits.
  static let limit: Double = 0x1p62
  /// A packed block's bytes before its packed rows: tag, exponent, width and base.
  static let packedHeaderSize = 1 + 1 + 1 + 8
  /// The fewest bytes a block takes: a raw block of one row.
  static let minimumBlockSize = 1 + 8

  /// Whether `type`'s columns have this layout in file format `format`.
  static func handles(_ type: Any.Type, format: UInt32) -> Bool {
    format >= SnapshotFormat.packedNumberVersion && (type == Double.self || type == Date.self)
  }

  /// The bytes a packed block of `rows` values at `width` bits takes after its header.
  @inline(__always)
  static func packedSize(rows: Int, width: Int) -> Int { (rows &* width &+ 7) &>> 3 }
}

// MARK: Writing

extension PackedNumberLayout {
  /// Writes `column`'s rows (a `Double` or `Date` column; the row count is already written)
  /// block by block.
  static func encode<Element: ColumnValue>(_ column: Column<Element>, into writer: inout ByteWriter)
  {
    precondition(MemoryLayout<Element>.stride == 8 && AnyColumn.chunkRows % blockRows == 0)
    let integers = UnsafeMutablePointer<Int64>.allocate(capacity: blockRows)
    defer { integers.deallocate() }
    column.forEachChunk { _, values in
      let raw = UnsafeRawBufferPointer(values)
      var first = 0
      while first < values.count {
        let rows = min(values.count - first, blockRows)
        encodeBlock(
          UnsafeRawBufferPointer(rebasing: raw[first &* 8..<(first &+ rows) &* 8]),
          integers: integers, into: &writer)
        first += rows
      }
    }
  }

  /// Writes one block of `values` (8 bytes each), packed when that is exact and smaller;
  /// `integers` has room for a block.
  static func encodeBlock(
    _ values: UnsafeRawBufferPointer, integers: UnsafeMutablePointer<Int64>,
    into writer: inout ByteWriter
  ) {
    let rows = values.count / 8
    if let fitted = fit(values, integers: integers) {
      let (exponent, low) = (fitted.exponent, fitted.low)
      let width = 64 - UInt64(bitPattern: fitted.high &- low).leadingZeroBitCount
      let size = packedSize(rows: rows, width: width)
      if packedHeaderSize + size < 1 + values.count {
        writer.append(packedTag)
        writer.append(UInt8(exponent))
        writer.append(UInt8(width))
        writer.append(low)
        if size > 0 {
          writer.appendUninitialized(size) { out in
            pack(integers, rows: rows, base: low, width: width, into: out)
          }
        }
        return
      }
    }
    writer.append(rawTag)
    writer.append(raw: values)
  }

  /// The smallest exponent that turns every value of `values` into an integer that gives it
  /// back exactly, with the least and greatest of those integers (stored in `integers`); `nil`
  /// when no exponent does.
  static func fit(_ values: UnsafeRawBufferPointer, integers: UnsafeMutablePointer<Int64>)
    -> (exponent: Int, low: Int64, high: Int64)?
  {
    let rows = values.count / 8
    guard rows > 0 else { return nil }
    exponents: for exponent in 0...maximumExponent {
      var low = Int64.max
      var high = Int64.min
      if exponent == 0 {
        // Whole numbers (dates of whole seconds): no rounding, no division by 1.
        for row in 0..<rows {
          let value = values.loadUnaligned(fromByteOffset: row &* 8, as: Double.self)
          guard value >= -limit && value <= limit else { continue exponents }
          let integer = Int64(value)
          guard Double(integer).bitPattern == value.bitPattern else { continue exponents }
          integers[row] = integer
          low = min(low, integer)
          high = max(high, integer)
        }
        return (exponent, low, high)
      }
      let power = powers[exponent]
      // Most exponents that do not fit fail at the first value.
      for row in 0..<rows {
        let value = values.loadUnaligned(fromByteOffset: row &* 8, as: Double.self)
        let scaled = nearestInteger(value * power)
        // NaN fails both comparisons.
        guard scaled >= -limit && scaled <= limit else { continue exponents }
        let integer = Int64(scaled)
        guard (Double(integer) / power).bitPattern == value.bitPattern else {
          continue exponents
        }
        integers[row] = integer
        low = min(low, integer)
        high = max(high, integer)
      }
      return (exponent, low, high)
    }
    return nil
  }

  /// The integer nearest to `value` (either one at a tie), as a `Double`.
  ///
  /// Below 2^51 in magnitude, adding and subtracting 1.5 × 2^52 rounds in one step (the sum
  /// has no bits below 1), which is faster than `rounded()` where that is a library call;
  /// the caller checks the integer gives the value back, so a tie may go either way.
  @inline(__always)
  static func nearestInteger(_ value: Double) -> Double {
    let shifter: Double = 0x1.8p52
    guard abs(value) < 0x1p51 else { return value.rounded() }
    return (value + shifter) - shifter
  }

  /// Writes `integers[0..<rows] - base` at `width` bits each into `out`
  /// (``packedSize(rows:width:)`` bytes).
  static func pack(
    _ integers: UnsafeMutablePointer<Int64>, rows: Int, base: Int64, width: Int,
    into out: UnsafeMutableRawBufferPointer
  ) {
    var word: UInt64 = 0
    var filled = 0
    var offset = 0
    for row in 0..<rows {
      let difference = UInt64(bitPattern: integers[row] &- base)
      word |= difference &<< UInt64(filled)
      filled &+= width
      if filled >= 64 {
        out.storeBytes(of: word.littleEndian, toByteOffset: offset, as: UInt64.self)
        offset &+= 8
        filled &-= 64
        word = filled == 0 ? 0 : difference &>> UInt64(width &- filled)
      }
    }
    var byte = 0
    while byte &* 8 < filled {
      out[offset &+ byte] = UInt8(truncatingIfNeeded: word &>> UInt64(byte &* 8))
      byte &+= 1
    }
  }
}
