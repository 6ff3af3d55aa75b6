/// Reading ``PackedNumberLayout``: each block's tag, exponent, width and byte count is checked
/// against the bytes that remain, then its rows are unpacked straight into the column's chunk.
extension PackedNumberLayout {
  /// Reads a row count and the blocks ``encode(_:into:)`` wrote into `column` (a new, empty
  /// `Double` or `Date` column). An error names the block's rows and the byte of the field.
  static func decode<Element: ColumnValue>(_ column: Column<Element>, from reader: inout ByteReader)
    throws
  {
    precondition(MemoryLayout<Element>.stride == 8 && AnyColumn.chunkRows % blockRows == 0)
    let countAt = reader.position
    let count = try reader.read(UInt64.self)
    // Every block takes at least a tag and one raw value: the blocks a count needs must fit.
    let blocks = count / UInt64(blockRows) + (count % UInt64(blockRows) == 0 ? 0 : 1)
    guard count <= UInt64(Int.max), blocks <= UInt64(reader.remaining / minimumBlockSize) else {
      throw reader.error(
        "count \(count) does not fit in the \(reader.remaining) bytes left", at: countAt)
    }
    var failure: (any Error)?
    column.load(count: Int(count)) { start, values, rows in
      let out = UnsafeMutableRawPointer(values)
      var first = 0
      while first < rows {
        let size = min(rows - first, blockRows)
        let blockOut = out + first &* 8
        if failure == nil {
          do {
            try decodeBlock(rows: start + first, count: size, into: blockOut, from: &reader)
          } catch {
            failure = error
          }
        }
        if failure != nil {
          // The column is dropped; its memory is still initialized.
          for row in 0..<size {
            blockOut.storeBytes(of: 0, toByteOffset: row &* 8, as: UInt64.self)
          }
        }
        first += size
      }
    }
    if let failure { throw failure }
  }

  /// Reads the block of `count` rows starting at row `first` into `out` (8 bytes a row).
  static func decodeBlock(
    rows first: Int, count: Int, into out: UnsafeMutableRawPointer, from reader: inout ByteReader
  ) throws {
    /// The block's rows, for errors.
    var rows: String { "rows \(first)..<\(first + count)" }
    let tagAt = reader.position
    switch try reader.read(UInt8.self) {
    case rawTag:
      guard count &* 8 <= reader.remaining else {
        throw reader.error(
          "\(rows): \(count) raw values need \(count * 8) bytes, \(reader.remaining) remain",
          at: tagAt)
      }
      let raw = try reader.readBytes(count &* 8)
      out.copyMemory(from: raw.baseAddress.unsafelyUnwrapped, byteCount: count &* 8)
    case packedTag:
      let headerAt = reader.position
      let exponent = Int(try reader.read(UInt8.self))
      guard exponent <= maximumExponent else {
        throw reader.error(
          "\(rows): exponent \(exponent) is outside 0...\(maximumExponent)", at: headerAt)
      }
      let width = Int(try reader.read(UInt8.self))
      guard width <= 64 else {
        throw reader.error("\(rows): width \(width) is more than 64 bits", at: headerAt + 1)
      }
      let base = try reader.read(Int64.self)
      let size = packedSize(rows: count, width: width)
      guard size <= reader.remaining else {
        throw reader.error(
          "\(rows): \(count) values of \(width) bits need \(size) bytes, "
            + "\(reader.remaining) remain", at: headerAt + 1)
      }
      let bytesAt = reader.position
      let bytes = try reader.readBytes(size)
      let usedBits = count &* width & 7
      if usedBits != 0, bytes[size - 1] &>> UInt8(usedBits) != 0 {
        throw reader.error("\(rows): the last byte's unused bits are not 0", at: bytesAt + size - 1)
      }
      unpack(bytes, rows: count, base: base, width: width, power: powers[exponent], into: out)
    case let tag:
      throw reader.error("\(rows): \(tag) is not a layout of a block of numbers", at: tagAt)
    }
  }

  /// Writes `rows` values `Double(base + d) / power` into `out` (8 bytes a row), `d` being
  /// the `width`-bit numbers of `bytes` (``packedSize(rows:width:)`` of them).
  static func unpack(
    _ bytes: UnsafeRawBufferPointer, rows: Int, base: Int64, width: Int, power: Double,
    into out: UnsafeMutableRawPointer
  ) {
    guard width > 0 else {
      let value = Double(base) / power
      for row in 0..<rows { out.storeBytes(of: value, toByteOffset: row &* 8, as: Double.self) }
      return
    }
    let mask: UInt64 = width == 64 ? ~0 : (1 &<< UInt64(width)) &- 1
    var row = 0
    // Rows whose bits lie in the eight bytes from their first: one unaligned load each.
    if width <= 56, bytes.count >= 8 {
      let fast = min(rows, (bytes.count &- 8) &* 8 / width &+ 1)
      let start = bytes.baseAddress.unsafelyUnwrapped
      if power == 1 {
        // Whole numbers: dividing by 1 changes nothing.
        while row < fast {
          let bit = row &* width
          let word = UInt64(
            littleEndian: start.loadUnaligned(fromByteOffset: bit &>> 3, as: UInt64.self))
          let difference = (word &>> UInt64(bit & 7)) & mask
          out.storeBytes(
            of: Double(base &+ Int64(bitPattern: difference)), toByteOffset: row &* 8,
            as: Double.self)
          row &+= 1
        }
      } else {
        while row < fast {
          let bit = row &* width
          let word = UInt64(
            littleEndian: start.loadUnaligned(fromByteOffset: bit &>> 3, as: UInt64.self))
          let difference = (word &>> UInt64(bit & 7)) & mask
          out.storeBytes(
            of: Double(base &+ Int64(bitPattern: difference)) / power, toByteOffset: row &* 8,
            as: Double.self)
          row &+= 1
        }
      }
    }
    while row < rows {
      let difference = bits(bytes, at: row &* width, width: width) & mask
      out.storeBytes(
        of: Double(base &+ Int64(bitPattern: difference)) / power, toByteOffset: row &* 8,
        as: Double.self)
      row &+= 1
    }
  }

  /// The `width` bits at bit `bit` of `bytes` (and maybe higher bits above them), read byte by
  /// byte, never past the bits' last byte.
  static func bits(_ bytes: UnsafeRawBufferPointer, at bit: Int, width: Int) -> UInt64 {
    let first = bit &>> 3
    let shift = bit & 7
    let last = (bit &+ width &- 1) &>> 3
    var word: UInt64 = 0
    var index = first
    while index <= last && index &- first < 8 {
      word |= UInt64(bytes[index]) &<< UInt64((index &- first) &* 8)
      index &+= 1
    }
    var value = word &>> UInt64(shift)
    // Bits over nine bytes: the ninth's start above the first eight's (`shift` is not 0).
    if last &- first == 8 { value |= UInt64(bytes[last]) &<< UInt64(64 &- shift) }
    return value
  }
}
