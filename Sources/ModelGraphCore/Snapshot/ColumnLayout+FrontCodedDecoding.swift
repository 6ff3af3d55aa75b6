/// Format 7's front-coded string groups read straight into a column's chunks: each group's
/// lengths are checked into its rows' ends (buffers of one chunk, reused), then each value is
/// rebuilt in the chunk's arena by copying its shared prefix from the value before it there and
/// its rest from the file; no `String` is made per row.
extension ColumnLayout {
  /// Reads what follows the layout byte 1 of format 7's string layout into `strings` (new,
  /// grown to `count` rows). An error names the row and the byte of its length.
  static func decodeFrontCoded(
    _ strings: StringColumnStorage, count: Int, bitmap: UnsafeRawBufferPointer?,
    from reader: inout ByteReader
  ) throws {
    let capacity = 1 << AnyColumn.chunkShift
    // ends[i] is where row i of the group ends in its chunk's arena; ends[-1] is 0.
    let buffer = UnsafeMutablePointer<Int>.allocate(capacity: 2 * capacity + 1)
    defer { buffer.deallocate() }
    buffer[0] = 0
    let group = FrontCodedGroup(ends: buffer + 1, prefixes: buffer + 1 + capacity)
    var row = 0
    while row < count {
      let rows = min(count - row, capacity)
      try group.decode(into: strings, first: row, rows: rows, bitmap: bitmap, from: &reader)
      row += rows
    }
  }
}

/// The buffers of one group's rows, and the steps that read it.
private struct FrontCodedGroup {
  /// Where each row ends in the chunk's arena; `ends[-1]` is 0.
  let ends: UnsafeMutablePointer<Int>
  /// The bytes each row shares with the last non-empty value before it.
  let prefixes: UnsafeMutablePointer<Int>

  /// Reads the group of rows `first ..< first + rows` into its chunk of `strings`.
  func decode(
    into strings: StringColumnStorage, first: Int, rows: Int, bitmap: UnsafeRawBufferPointer?,
    from reader: inout ByteReader
  ) throws {
    let tagAt = reader.position
    let tag = try reader.read(UInt8.self)
    guard tag <= 1 else {
      throw reader.error(
        "rows \(first)..<\(first + rows): \(tag) is not a layout of string rows", at: tagAt)
    }
    let frontCoded = tag == 1
    var (cursor, sectionStart) = try reader.readSection()
    let section = cursor.bytes
    /// The byte of the file where row `first + index`'s lengths start (for errors: the section
    /// is read again).
    func lengthsOffset(_ index: Int) -> Int {
      var again = VarintCursor(section)
      for _ in 0..<(frontCoded ? 2 * index : index) { _ = again.next() }
      return sectionStart + again.position
    }
    // Every length is checked against the bytes after the section, and every shared prefix
    // against the value it is taken from, before anything is copied.
    let room = reader.remaining
    var restTotal = 0
    var end = 0
    var lastLength = 0
    for index in 0..<rows {
      var prefix = 0
      if frontCoded {
        let at = cursor.position
        guard let shared = cursor.next() else {
          throw reader.error(
            "row \(first + index)'s shared prefix length is damaged", at: sectionStart + at)
        }
        guard shared <= UInt64(lastLength) else {
          throw reader.error(
            "row \(first + index) shares \(shared) bytes with a value of \(lastLength) bytes",
            at: sectionStart + at)
        }
        prefix = Int(shared)
      }
      let at = cursor.position
      guard let rest = cursor.next() else {
        throw reader.error("row \(first + index)'s string length is damaged", at: sectionStart + at)
      }
      guard rest <= UInt64(room - restTotal) else {
        throw reader.error(
          "row \(first + index)'s string of \(frontCoded ? "\(prefix) + " : "")\(rest) bytes "
            + "ends outside \(restTotal)...\(room)",
          at: sectionStart + at)
      }
      restTotal += Int(rest)
      let length = prefix + Int(rest)
      end += length
      ends[index] = end
      prefixes[index] = prefix
      if length > 0 { lastLength = length }
    }
    guard cursor.isAtEnd else {
      throw reader.error(
        "bytes follow the last string length of rows \(first)..<\(first + rows)",
        at: sectionStart + cursor.position)
    }
    let stored = 1 + 8 + section.count + restTotal
    guard !frontCoded || end <= ColumnLayout.frontCodedExpansionLimit * stored else {
      throw reader.error(
        "rows \(first)..<\(first + rows) rebuild \(end) bytes from \(stored), more than "
          + "\(ColumnLayout.frontCodedExpansionLimit) times as many", at: tagAt)
    }
    let rests = try reader.readBytes(restTotal)
    // Each absent row must be empty.
    if let bitmap,
      let filled = ColumnLayout.firstFilledAbsentRow(
        bitmap, chunkRow: first, rows: rows, ends: ends)
    {
      throw reader.error(
        "row \(first + filled.index) has no value but \(filled.bytes) bytes",
        at: lengthsOffset(filled.index))
    }
    let ascii = ColumnLayout.isASCII(rests)
    var longest = 0
    if end > strings.inlineLimit {
      for index in 0..<rows { longest = max(longest, ends[index] - ends[index - 1]) }
    }
    let chunk = strings.chunkForWriting(first >> AnyColumn.chunkShift)
    if longest > strings.inlineLimit {
      try setRows(
        chunk, inlineLimit: strings.inlineLimit, first: first, rows: rows, bitmap: bitmap,
        rests: rests, ascii: ascii, reader: reader, lengthsOffset: lengthsOffset)
      return
    }
    load(chunk, first: first, rows: rows, byteCount: end, bitmap: bitmap, rests: rests)
    // ASCII rests rebuild ASCII values; others are checked once the values are in the chunk
    // (the column is dropped when one is wrong).
    guard !ascii else { return }
    var restStart = 0
    var lastStart = 0
    for index in 0..<rows {
      let start = ends[index - 1]
      let prefix = prefixes[index]
      let rest = ends[index] - start - prefix
      if prefix > 0, start - lastStart > prefix, chunk.bytes[lastStart + prefix] & 0xC0 == 0x80 {
        throw reader.error(
          "row \(first + index)'s shared prefix of \(prefix) bytes ends inside a character",
          at: lengthsOffset(index))
      }
      let utf8 = UnsafeRawBufferPointer(rebasing: rests[restStart..<(restStart + rest)])
        .assumingMemoryBound(to: UInt8.self)
      guard ColumnLayout.makeString(utf8, isASCII: false) != nil else {
        throw reader.error(
          "row \(first + index)'s string is not valid UTF-8", at: lengthsOffset(index))
      }
      restStart += rest
      if ends[index] > start { lastStart = start }
    }
  }

  /// Fills `chunk` with the group's rows, every one at most the inline limit: each value's
  /// shared prefix is copied from the last non-empty value before it in the chunk's arena, its
  /// rest from `rests`.
  private func load(
    _ chunk: StringChunk, first: Int, rows: Int, byteCount: Int,
    bitmap: UnsafeRawBufferPointer?, rests: UnsafeRawBufferPointer
  ) {
    let ends = ends
    let prefixes = prefixes
    chunk.load(
      rows: rows, byteCount: byteCount,
      nilBits: { word in ColumnLayout.absentBits(bitmap, chunkRow: first, word: word) },
      fill: { offsets, bytes in
        for index in 0..<rows { offsets[index + 1] = UInt32(truncatingIfNeeded: ends[index]) }
        guard byteCount > 0, let source = rests.baseAddress else { return }
        let restBytes = source.assumingMemoryBound(to: UInt8.self)
        guard byteCount != rests.count else {
          // Nothing shared (a plain group, or no prefixes): the rests are the values.
          bytes.update(from: restBytes, count: byteCount)
          return
        }
        let restCount = rests.count
        var restStart = 0
        var lastStart = 0
        for index in 0..<rows {
          let start = ends[index &- 1]
          let end = ends[index]
          let prefix = prefixes[index]
          if prefix > 0 {
            // Eight bytes at a time when the value it comes from has at least eight (so each
            // word read was written before) and the arena has room: the bytes copied past the
            // prefix are rewritten next.
            if start &- lastStart >= 8, start &+ prefix &+ 7 <= byteCount {
              copyWords(from: bytes + lastStart, to: bytes + start, count: prefix)
            } else {
              (bytes + start).update(from: bytes + lastStart, count: prefix)
            }
          }
          let rest = end &- start &- prefix
          if rest > 0 {
            let target = bytes + (start &+ prefix)
            if restStart &+ rest &+ 7 <= restCount, start &+ prefix &+ rest &+ 7 <= byteCount {
              copyWords(from: restBytes + restStart, to: target, count: rest)
            } else {
              target.update(from: restBytes + restStart, count: rest)
            }
            restStart &+= rest
          }
          if end > start { lastStart = start }
        }
      })
  }

  /// Copies `count` bytes from `source` to `target` as 8-byte words, rounding `count` up to a
  /// whole word: both sides must have those bytes.
  @inline(__always)
  private func copyWords(
    from source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count: Int
  ) {
    var offset = 0
    while offset < count {
      UnsafeMutableRawPointer(target + offset).storeBytes(
        of: UnsafeRawPointer(source + offset).loadUnaligned(as: UInt64.self), as: UInt64.self)
      offset &+= 8
    }
  }

  /// Sets the group's rows one by one, for a group some of whose values are longer than the
  /// inline limit (held out of line), checking each as it goes.
  private func setRows(
    _ chunk: StringChunk, inlineLimit: Int, first: Int, rows: Int,
    bitmap: UnsafeRawBufferPointer?, rests: UnsafeRawBufferPointer, ascii: Bool,
    reader: ByteReader, lengthsOffset: (Int) -> Int
  ) throws {
    var inline = 0
    for index in 0..<rows where ends[index] - ends[index - 1] <= inlineLimit {
      inline += ends[index] - ends[index - 1]
    }
    chunk.reserveBytes(inline)
    var previous: [UInt8] = []
    var restStart = 0
    for index in 0..<rows {
      let prefix = prefixes[index]
      let length = ends[index] - ends[index - 1]
      let rest = UnsafeRawBufferPointer(rebasing: rests[restStart..<(restStart + length - prefix)])
      restStart += rest.count
      if !ascii {
        if prefix > 0, prefix < previous.count, previous[prefix] & 0xC0 == 0x80 {
          throw reader.error(
            "row \(first + index)'s shared prefix of \(prefix) bytes ends inside a character",
            at: lengthsOffset(index))
        }
        guard
          ColumnLayout.makeString(rest.assumingMemoryBound(to: UInt8.self), isASCII: false)
            != nil
        else {
          throw reader.error(
            "row \(first + index)'s string is not valid UTF-8", at: lengthsOffset(index))
        }
      }
      guard length > 0 else {
        if ColumnLayout.isPresent(bitmap, row: first + index) {
          chunk.setBytes(UnsafeBufferPointer(start: nil, count: 0), at: index)
        }
        continue
      }
      var value: [UInt8] = []
      value.reserveCapacity(length)
      value.append(contentsOf: previous[..<prefix])
      value.append(contentsOf: rest)
      value.withUnsafeBufferPointer { chunk.setBytes($0, at: index, inlineLimit: inlineLimit) }
      previous = value
    }
    // The reservation held only the values kept in the arena.
    chunk.shrinkToFit()
  }
}
