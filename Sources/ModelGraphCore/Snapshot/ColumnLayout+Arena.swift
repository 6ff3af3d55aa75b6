/// The string layout of ``ColumnLayout`` written from and read into a column's UTF-8 arenas
/// (``StringColumnStorage``) directly: the bytes of each chunk are copied whole, and no
/// `String` is made except to validate rows that are not ASCII.
extension ColumnLayout {
  /// Writes the rows below `count` of `strings` in the string layout of file format `format`
  /// (the row count is already written). From format 6 the offset width is 0, and each row's
  /// UTF-8 byte count follows as a varint, in a section, instead of its end offset; from
  /// format 7 the layout byte is 1, and groups of rows follow, most front-coded
  /// (``encodeFrontCoded(_:count:into:)``).
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
    if format >= SnapshotFormat.frontCodedStringVersion {
      // Format 7: groups of rows, each front-coded or plain (`ColumnLayout+FrontCoded`).
      writer.append(UInt8(1))
      return encodeFrontCoded(strings, count: count, into: &writer)
    }
    if format >= SnapshotFormat.compactLayoutVersion {
      writer.append(UInt8(0))
      // A chunk whose rows all lie in its arena gives their lengths from its offsets, in a
      // loop of its own; another asks row by row.
      var size = 0
      for chunk in 0..<chunks {
        let strings = strings.chunk(chunk)
        let rows = rows(in: chunk)
        if let offsets = strings.inlineOffsets(rows: rows) {
          for row in 0..<rows {
            size &+= Varint.size(UInt64(offsets[row &+ 1] &- offsets[row]))
          }
        } else {
          for row in 0..<rows { size &+= Varint.size(UInt64(strings.utf8Count(row))) }
        }
      }
      writer.appendSection(size: size) { lengths in
        var position = 0
        for chunk in 0..<chunks {
          let strings = strings.chunk(chunk)
          let rows = rows(in: chunk)
          if let offsets = strings.inlineOffsets(rows: rows) {
            for row in 0..<rows {
              position = Varint.store(
                UInt64(offsets[row &+ 1] &- offsets[row]), into: lengths, at: position)
            }
          } else {
            for row in 0..<rows {
              position = Varint.store(UInt64(strings.utf8Count(row)), into: lengths, at: position)
            }
          }
        }
      }
    } else {
      encodeArenaOffsets(strings, count: count, total: total, into: &writer)
    }
    writer.append(UInt64(total))
    // Each chunk's arena is appended as it is (no zeroed buffer to fill first); a chunk with
    // values held out of line, row by row to put them in their places.
    for chunk in 0..<chunks {
      let strings = strings.chunk(chunk)
      guard !strings.hasOutOfLineValues else {
        for offset in 0..<rows(in: chunk) {
          strings.withBytes(offset) { writer.append(raw: UnsafeRawBufferPointer($0)) }
        }
        continue
      }
      let length = strings.byteCount(rows: rows(in: chunk))
      guard length > 0 else { continue }
      writer.append(raw: UnsafeRawBufferPointer(start: strings.bytes, count: length))
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
    if width == 1, format >= SnapshotFormat.frontCodedStringVersion {
      return try decodeFrontCoded(strings, count: count, bitmap: bitmap, from: &reader)
    }
    if width == 0, format >= SnapshotFormat.compactLayoutVersion {
      return try decodeCompactArena(strings, count: count, bitmap: bitmap, from: &reader)
    }
    guard width == 4 || width == 8 else {
      let expected =
        format >= SnapshotFormat.frontCodedStringVersion
        ? "0, 1, 4 or 8" : format >= SnapshotFormat.compactLayoutVersion ? "0, 4 or 8" : "4 or 8"
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
      // Every row checked first; then, unless a row goes out of line, the chunk is loaded whole.
      for _ in 0..<rows {
        let end = end(of: row)
        guard end >= start, end <= arenaLength else {
          throw reader.error(
            "row \(row)'s string ends at \(end), outside \(start)...\(arenaLength)",
            at: offsetsStart + row * offsetStride)
        }
        if !isPresent(bitmap, row: row) {
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
          nilBits: { word in absentBits(bitmap, chunkRow: chunkRow, word: word) },
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
        if isPresent(bitmap, row: row) {
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

  /// Whether `row` holds a value, by the presence bitmap of an optional column (`nil`: every
  /// row does).
  @inline(__always)
  static func isPresent(_ bitmap: UnsafeRawBufferPointer?, row: Int) -> Bool {
    guard let bitmap else { return true }
    return bitmap[row >> 3] & (UInt8(1) << (row & 7)) != 0
  }

  /// The first of the `rows` rows from `chunkRow` (a chunk's first row) that the bitmap marks
  /// absent but whose range in `ends` (`ends[-1]` is 0) is not empty, with its byte count;
  /// `nil` when every absent row is empty. Only the absent rows are visited.
  static func firstFilledAbsentRow(
    _ bitmap: UnsafeRawBufferPointer, chunkRow: Int, rows: Int, ends: UnsafePointer<Int>
  ) -> (index: Int, bytes: Int)? {
    var word = 0
    while word &* 64 < rows {
      var absent = absentBits(bitmap, chunkRow: chunkRow, word: word)
      let remaining = rows &- word &* 64
      if remaining < 64 { absent &= (1 &<< UInt64(remaining)) &- 1 }
      while absent != 0 {
        let index = word &* 64 &+ absent.trailingZeroBitCount
        absent &= absent &- 1
        let bytes = ends[index] - ends[index - 1]
        if bytes != 0 { return (index, bytes) }
      }
      word += 1
    }
    return nil
  }

  /// The absent flags of rows `chunkRow + 64 * word ..< chunkRow + 64 * word + 64` (bit
  /// `row % 64` set for a row without a value), from the presence bitmap of an optional column;
  /// `chunkRow` is a multiple of 64. Rows past the bitmap's end read as absent.
  @inline(__always)
  static func absentBits(_ bitmap: UnsafeRawBufferPointer?, chunkRow: Int, word: Int) -> UInt64 {
    guard let bitmap else { return 0 }
    let first = (chunkRow >> 3) + word * 8
    guard first + 8 > bitmap.count else {
      return ~UInt64(littleEndian: bitmap.loadUnaligned(fromByteOffset: first, as: UInt64.self))
    }
    var bits: UInt64 = 0
    for index in first..<bitmap.count {
      bits |= UInt64(bitmap[index]) << UInt64((index - first) * 8)
    }
    return ~bits
  }
}
