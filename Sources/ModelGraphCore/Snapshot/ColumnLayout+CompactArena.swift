/// Format 6's string rows read straight into a column's chunks: each chunk's varint lengths are
/// decoded into its row ends (a buffer of one chunk, reused), checked, and loaded with the
/// chunk's bytes; no array of every row's end is made.
extension ColumnLayout {
  /// Reads what follows the offset width 0 of format 6's string layout (the section of lengths,
  /// the arena's length and the arena) into `strings` (new, grown to `count` rows), checking
  /// every length, absent row and UTF-8 sequence as ``decodeArena`` does for offsets. An error
  /// names the row and the byte of its length.
  static func decodeCompactArena(
    _ strings: StringColumnStorage, count: Int, bitmap: UnsafeRawBufferPointer?,
    from reader: inout ByteReader
  ) throws {
    var (cursor, sectionStart) = try reader.readSection()
    let arenaLength = try reader.readCount(minimumSize: 1)
    let arena = try reader.readBytes(arenaLength)
    let ascii = isASCII(arena)
    let shift = AnyColumn.chunkShift
    // ends[i] is where row i of the chunk ends, from the chunk's first byte; ends[-1] is 0.
    let buffer = UnsafeMutablePointer<Int>.allocate(capacity: (1 << shift) + 1)
    defer { buffer.deallocate() }
    buffer[0] = 0
    let ends = buffer + 1
    /// The byte of the file where the length of row `first + index` starts, the chunk's
    /// lengths starting at `chunkAt` in the section (for errors: the lengths are read again).
    let section = cursor.bytes
    func lengthOffset(chunkAt: Int, index: Int) -> Int {
      var again = VarintCursor(UnsafeRawBufferPointer(rebasing: section[chunkAt...]))
      for _ in 0..<index { _ = again.next() }
      return sectionStart + chunkAt + again.position
    }
    var start = 0
    var row = 0
    while row < count {
      let rows = min(count - row, 1 << shift)
      let chunkAt = cursor.position
      let room = arenaLength - start
      var end = 0
      var index = 0
      while index < rows {
        let at = cursor.position
        // Eight one-byte lengths at once: the end grows by at most 8 × 127.
        if rows &- index >= 8, let word = cursor.nextEightSmall() {
          for byte in 0..<8 {
            end &+= Int(truncatingIfNeeded: (word >> UInt64(byte &* 8)) & 0xFF)
            ends[index &+ byte] = end
          }
          if end > room {
            var first = index
            while ends[first] <= room { first += 1 }
            throw reader.error(
              "row \(row + first)'s string of \(ends[first] - ends[first - 1]) bytes ends "
                + "outside \(start + ends[first - 1])...\(arenaLength)",
              at: sectionStart + at + first - index)
          }
          index &+= 8
          continue
        }
        guard let length = cursor.next() else {
          throw reader.error("row \(row + index)'s string length is damaged", at: sectionStart + at)
        }
        guard length <= UInt64(room - end) else {
          throw reader.error(
            "row \(row + index)'s string of \(length) bytes ends outside "
              + "\(start + end)...\(arenaLength)",
            at: sectionStart + at)
        }
        end += Int(length)
        ends[index] = end
        index += 1
      }
      // Each absent row's range must be empty.
      if let bitmap,
        let filled = firstFilledAbsentRow(bitmap, chunkRow: row, rows: rows, ends: ends)
      {
        throw reader.error(
          "row \(row + filled.index) has no value but \(filled.bytes) bytes",
          at: lengthOffset(chunkAt: chunkAt, index: filled.index))
      }
      if !ascii {
        for index in 0..<rows {
          let utf8 = UnsafeRawBufferPointer(
            rebasing: arena[(start + ends[index - 1])..<(start + ends[index])]
          ).assumingMemoryBound(to: UInt8.self)
          guard makeString(utf8, isASCII: false) != nil else {
            throw reader.error(
              "row \(row + index)'s string is not valid UTF-8",
              at: lengthOffset(chunkAt: chunkAt, index: index))
          }
        }
      }
      var longest = 0
      if end > strings.inlineLimit {
        for index in 0..<rows { longest = max(longest, ends[index] - ends[index - 1]) }
      }
      let chunk = strings.chunkForWriting(row >> shift)
      let chunkRow = row
      let chunkStart = start
      let byteCount = end
      if longest <= strings.inlineLimit {
        chunk.load(
          rows: rows, byteCount: byteCount,
          nilBits: { word in absentBits(bitmap, chunkRow: chunkRow, word: word) },
          fill: { offsets, bytes in
            for index in 0..<rows {
              offsets[index + 1] = UInt32(truncatingIfNeeded: ends[index])
            }
            guard byteCount > 0, let base = arena.baseAddress else { return }
            bytes.update(
              from: base.assumingMemoryBound(to: UInt8.self) + chunkStart, count: byteCount)
          })
      } else {
        chunk.reserveBytes(end)
        for index in 0..<rows where isPresent(bitmap, row: chunkRow + index) {
          let utf8 = UnsafeRawBufferPointer(
            rebasing: arena[(chunkStart + ends[index - 1])..<(chunkStart + ends[index])]
          ).assumingMemoryBound(to: UInt8.self)
          chunk.setBytes(utf8, at: index, inlineLimit: strings.inlineLimit)
        }
        // The reservation held the bytes of values that went out of line.
        chunk.shrinkToFit()
      }
      start += end
      row += rows
    }
    guard cursor.isAtEnd else {
      throw reader.error(
        "bytes follow the last string length", at: sectionStart + cursor.position)
    }
    guard start == arenaLength else {
      throw reader.error("the strings end at \(start), the arena at \(arenaLength)")
    }
  }
}
