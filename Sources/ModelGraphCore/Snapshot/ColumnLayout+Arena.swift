/// The string layout of ``ColumnLayout`` written from and read into a column's UTF-8 arenas
/// (``StringColumnStorage``) directly: the bytes of each chunk are copied whole, and no
/// `String` is made except to validate rows that are not ASCII.
extension ColumnLayout {
  /// Writes the rows below `count` of `strings` in the string layout of file format `format`
  /// (the row count is already written). From format 6 the offset width is 0, and each row's
  /// UTF-8 byte count follows as a varint, in a section, instead of its end offset.
  static func encodeArena(
    _ strings: StringColumnStorage, count: Int, isOptional: Bool, format: UInt32,
    into writer: inout ByteWriter
  ) {
    let shift = AnyColumn.chunkShift
    let chunks = (count + (1 << shift) - 1) >> shift
    func rows(in chunk: Int) -> Int { min(count - (chunk << shift), 1 << shift) }
    var total = 0
    for chunk in 0..<chunks { total += strings.chunk(chunk).valueBytes(rows: rows(in: chunk)) }
    if isOptional {
      writer.appendUninitialized((count + 7) / 8) { bitmap in
        bitmap.initializeMemory(as: UInt8.self, repeating: 0)
        for chunk in 0..<chunks {
          let strings = strings.chunk(chunk)
          let start = chunk << shift
          for offset in 0..<rows(in: chunk) where !strings.isNil(offset) {
            let row = start + offset
            bitmap[row >> 3] |= UInt8(1) << (row & 7)
          }
        }
      }
    }
    if format >= SnapshotFormat.compactLayoutVersion {
      writer.append(UInt8(0))
      var size = 0
      for chunk in 0..<chunks {
        let strings = strings.chunk(chunk)
        for offset in 0..<rows(in: chunk) {
          size &+= Varint.size(UInt64(strings.utf8Count(offset)))
        }
      }
      writer.appendSection(size: size) { lengths in
        var position = 0
        for chunk in 0..<chunks {
          let strings = strings.chunk(chunk)
          for offset in 0..<rows(in: chunk) {
            position = Varint.store(UInt64(strings.utf8Count(offset)), into: lengths, at: position)
          }
        }
      }
    } else {
      encodeArenaOffsets(strings, count: count, total: total, into: &writer)
    }
    writer.append(UInt64(total))
    writer.appendUninitialized(total) { arena in
      var position = 0
      for chunk in 0..<chunks {
        let strings = strings.chunk(chunk)
        guard !strings.hasOutOfLineValues else {
          // Row by row, to put the values held out of line in their places.
          for offset in 0..<rows(in: chunk) {
            strings.withBytes(offset) { utf8 in
              guard let base = utf8.baseAddress else { return }
              (arena.baseAddress! + position).copyMemory(from: base, byteCount: utf8.count)
              position += utf8.count
            }
          }
          continue
        }
        let length = strings.byteCount(rows: rows(in: chunk))
        guard length > 0 else { continue }
        (arena.baseAddress! + position).copyMemory(from: strings.bytes, byteCount: length)
        position += length
      }
    }
  }

  /// Writes the offset width (4, or 8 when the arena passes 4 GiB) and each row's end offset
  /// in the arena, as formats 4 and 5 do.
  private static func encodeArenaOffsets(
    _ strings: StringColumnStorage, count: Int, total: Int, into writer: inout ByteWriter
  ) {
    let shift = AnyColumn.chunkShift
    let chunks = (count + (1 << shift) - 1) >> shift
    func rows(in chunk: Int) -> Int { min(count - (chunk << shift), 1 << shift) }
    let width = total <= Int(UInt32.max) ? 4 : 8
    writer.append(UInt8(width))
    writer.appendUninitialized(count * width) { offsets in
      var end = 0
      var position = 0
      for chunk in 0..<chunks {
        let strings = strings.chunk(chunk)
        for offset in 0..<rows(in: chunk) {
          end += strings.utf8Count(offset)
          if width == 4 {
            offsets.storeBytes(
              of: UInt32(truncatingIfNeeded: end).littleEndian, toByteOffset: position,
              as: UInt32.self)
          } else {
            offsets.storeBytes(
              of: UInt64(end).littleEndian, toByteOffset: position, as: UInt64.self)
          }
          position += width
        }
      }
    }
  }

  /// Reads `count` rows in the string layout into `strings` (new, grown to `count` rows of
  /// placeholders), checking every length, offset and UTF-8 sequence as ``decodeStrings``.
  static func decodeArena(
    _ strings: StringColumnStorage, count: Int, isOptional: Bool, format: UInt32,
    from reader: inout ByteReader
  ) throws {
    // A constant, not a variable: the closures below capture it by value, so reading it per
    // row costs no dynamic exclusivity check (a captured variable cost one per row).
    let bitmap: UnsafeRawBufferPointer?
    if isOptional {
      let bits = try reader.readBytes((count + 7) / 8)
      if count & 7 != 0, bits[bits.count - 1] >> (count & 7) != 0 {
        throw reader.error("the presence bitmap has bits set past the last row")
      }
      bitmap = bits
    } else {
      bitmap = nil
    }
    let width = Int(try reader.read(UInt8.self))
    if width == 0, format >= SnapshotFormat.compactLayoutVersion {
      let (ends, sectionStart) = try decodeArenaLengths(count: count, from: &reader)
      defer { ends.deallocate() }
      let arenaLength = try reader.readCount(minimumSize: 1)
      let arena = try reader.readBytes(arenaLength)
      // Errors name the section: the ends are not in the file.
      let end = try decodeArenaRows(
        UInt64.self, strings, count: count, bitmap: bitmap, offsets: UnsafeRawBufferPointer(ends),
        offsetsStart: sectionStart, offsetStride: 0, arena: arena, reader: reader)
      guard end == arenaLength else {
        throw reader.error("the strings end at \(end), the arena at \(arenaLength)")
      }
      return
    }
    guard width == 4 || width == 8 else {
      let expected = format >= SnapshotFormat.compactLayoutVersion ? "0, 4 or 8" : "4 or 8"
      throw reader.error("string offsets of \(width) bytes; \(expected) expected")
    }
    let offsetsStart = reader.position
    let offsets = try reader.readBytes(count * width)
    let arenaLength = try reader.readCount(minimumSize: 1)
    let arena = try reader.readBytes(arenaLength)
    let end =
      width == 4
      ? try decodeArenaRows(
        UInt32.self, strings, count: count, bitmap: bitmap, offsets: offsets,
        offsetsStart: offsetsStart, offsetStride: 4, arena: arena, reader: reader)
      : try decodeArenaRows(
        UInt64.self, strings, count: count, bitmap: bitmap, offsets: offsets,
        offsetsStart: offsetsStart, offsetStride: 8, arena: arena, reader: reader)
    guard end == arenaLength else {
      throw reader.error("the strings end at \(end), the arena at \(arenaLength)")
    }
  }

  /// Reads format 6's section of row lengths (one varint a row) and returns each row's end in
  /// the arena as a little-endian `UInt64` (the caller deallocates them), with the section's
  /// start. A sum past `Int.max` is refused; the ends are checked against the arena later.
  private static func decodeArenaLengths(count: Int, from reader: inout ByteReader) throws -> (
    ends: UnsafeMutableBufferPointer<UInt64>, start: Int
  ) {
    var (cursor, start) = try reader.readSection()
    let ends = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: count)
    var end: UInt64 = 0
    var row = 0
    while row < count {
      // Eight one-byte lengths at once, while the sum stays far from overflowing.
      if count &- row >= 8, end < UInt64(Int.max) - 1024, let word = cursor.nextEightSmall() {
        for byte in 0..<8 {
          end &+= (word >> UInt64(byte &* 8)) & 0xFF
          ends[row &+ byte] = end.littleEndian
        }
        row &+= 8
        continue
      }
      let at = cursor.position
      guard let length = cursor.next(), length <= UInt64(Int.max) - end else {
        ends.deallocate()
        throw reader.error("row \(row)'s string length is damaged", at: start + at)
      }
      end += length
      ends[row] = end.littleEndian
      row += 1
    }
    guard cursor.isAtEnd else {
      ends.deallocate()
      throw reader.error("bytes follow the last string length", at: start + cursor.position)
    }
    return (ends, start)
  }

  /// The rows of ``decodeArena``, their ends read as `Offset` (`width` bytes each): checks every
  /// row and loads the chunks. Returns where the last row ends in the arena.
  ///
  /// Generic over the offset type so each loop reads one width, with no test per row.
  private static func decodeArenaRows<Offset: FixedWidthInteger & UnsignedInteger>(
    _: Offset.Type, _ strings: StringColumnStorage, count: Int, bitmap: UnsafeRawBufferPointer?,
    offsets: UnsafeRawBufferPointer, offsetsStart: Int, offsetStride: Int,
    arena: UnsafeRawBufferPointer, reader: ByteReader
  ) throws -> Int {
    let width = MemoryLayout<Offset>.size
    let arenaLength = arena.count
    let ascii = isASCII(arena)
    /// Where row `row` ends in the arena (a 64-bit end past `Int.max` reads negative, which
    /// the checks reject).
    @inline(__always) func end(of row: Int) -> Int {
      Int(
        truncatingIfNeeded: Offset(
          littleEndian: offsets.loadUnaligned(fromByteOffset: row &* width, as: Offset.self)))
    }
    var start = 0
    var row = 0
    let shift = AnyColumn.chunkShift
    while row < count {
      let chunk = strings.chunkForWriting(row >> shift)
      let rows = min(count - row, 1 << shift)
      let chunkEnd = end(of: row + rows - 1)
      let chunkStart = start
      let chunkRow = row
      var longest = 0
      @inline(__always) func isPresent(_ row: Int) -> Bool {
        guard let bitmap else { return true }
        return bitmap[row >> 3] & (UInt8(1) << (row & 7)) != 0
      }
      // Every row checked first; then, unless a row goes out of line, the chunk is loaded whole.
      for _ in 0..<rows {
        let end = end(of: row)
        guard end >= start, end <= arenaLength else {
          throw reader.error(
            "row \(row)'s string ends at \(end), outside \(start)...\(arenaLength)",
            at: offsetsStart + row * offsetStride)
        }
        if !isPresent(row) {
          guard end == start else {
            throw reader.error(
              "row \(row) has no value but \(end - start) bytes",
              at: offsetsStart + row * offsetStride)
          }
        } else {
          let utf8 = UnsafeRawBufferPointer(rebasing: arena[start..<end])
            .assumingMemoryBound(to: UInt8.self)
          guard ascii || makeString(utf8, isASCII: false) != nil else {
            throw reader.error(
              "row \(row)'s string is not valid UTF-8", at: offsetsStart + row * offsetStride)
          }
          longest = max(longest, end - start)
        }
        start = end
        row += 1
      }
      if longest <= strings.inlineLimit {
        let byteCount = start - chunkStart
        chunk.load(
          rows: rows, byteCount: byteCount,
          nilBits: { word in
            // Presence bits of 64 rows from a chunk's first row (a multiple of 64), inverted.
            guard let bitmap else { return 0 }
            let first = (chunkRow >> 3) + word * 8
            guard first + 8 > bitmap.count else {
              return ~UInt64(
                littleEndian: bitmap.loadUnaligned(fromByteOffset: first, as: UInt64.self))
            }
            var bits: UInt64 = 0
            for index in first..<bitmap.count {
              bits |= UInt64(bitmap[index]) << UInt64((index - first) * 8)
            }
            return ~bits
          },
          fill: { chunkOffsets, bytes in
            for offset in 0..<rows {
              chunkOffsets[offset + 1] = UInt32(
                truncatingIfNeeded: end(of: chunkRow + offset) - chunkStart)
            }
            guard byteCount > 0, let base = arena.baseAddress else { return }
            bytes.update(
              from: base.assumingMemoryBound(to: UInt8.self) + chunkStart, count: byteCount)
          })
        continue
      }
      start = chunkStart
      row = chunkRow
      if chunkEnd >= start && chunkEnd <= arenaLength { chunk.reserveBytes(chunkEnd - start) }
      // The first pass checked every row: this one only copies them in.
      for offset in 0..<rows {
        let end = end(of: row)
        if isPresent(row) {
          let utf8 = UnsafeRawBufferPointer(rebasing: arena[start..<end])
            .assumingMemoryBound(to: UInt8.self)
          chunk.setBytes(utf8, at: offset, inlineLimit: strings.inlineLimit)
        }
        start = end
        row += 1
      }
      // The reservation held the bytes of values that went out of line.
      chunk.shrinkToFit()
    }
    return start
  }
}
