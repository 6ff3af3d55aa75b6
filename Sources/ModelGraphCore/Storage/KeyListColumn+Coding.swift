/// Snapshot and journal coding of a to-many column: what a column of `[ObjectKey]` wrote.
///
/// From snapshot format 4, a whole column is laid out by ``ColumnLayout`` (counts, then compact
/// keys; from format 6, both as varints); before it, and in journal records, each row is a key
/// count and the keys as raw memory.
extension KeyListColumn {
  /// Writes every row in the layout of file format `format`, after the row count.
  func encodeLists(into writer: inout ByteWriter, format: UInt32) {
    writer.append(UInt64(count))
    if format >= SnapshotFormat.compactLayoutVersion {
      ColumnLayout.encodeCompactKeyLists(self, into: &writer)
    } else if format >= SnapshotFormat.columnLayoutVersion {
      ColumnLayout.encodeKeyLists(self, into: &writer)
    } else {
      for row in 0..<count { encodeList(at: row, into: &writer) }
    }
  }

  /// Replaces this (empty) column's rows with those a block of file format `format` holds.
  func decodeLists(from reader: inout ByteReader, format: UInt32) throws {
    let isLaidOut = format >= SnapshotFormat.columnLayoutVersion
    let isCompact = format >= SnapshotFormat.compactLayoutVersion
    let rows = try reader.readCount(minimumSize: isCompact ? 1 : isLaidOut ? 4 : 8)
    grow(to: rows)
    if isCompact {
      try ColumnLayout.decodeCompactKeyLists(self, count: rows, from: &reader)
    } else if isLaidOut {
      try ColumnLayout.decodeKeyLists(self, count: rows, from: &reader)
    } else {
      for row in 0..<rows { try decodeList(at: row, from: &reader) }
    }
  }

  /// Writes the list at `row`: its key count, then its keys.
  func encodeList(at row: Int, into writer: inout ByteWriter) {
    withKeys(at: row) { keys in
      writer.append(UInt64(keys.count))
      writer.append(raw: UnsafeRawBufferPointer(keys))
    }
  }

  /// Reads one list into `row` (as `[ObjectKey]` decodes one), copying its keys straight from
  /// the bytes into the row's chunk.
  func decodeList(at row: Int, from reader: inout ByteReader) throws {
    let stride = MemoryLayout<ObjectKey>.stride
    let count = try reader.readCount(minimumSize: stride)
    let raw = try reader.readBytes(count * stride)
    guard let base = raw.baseAddress, count > 0 else {
      set(UnsafeBufferPointer(start: nil, count: 0), at: row)
      return
    }
    if Int(bitPattern: base) % MemoryLayout<ObjectKey>.alignment == 0 {
      base.withMemoryRebound(to: ObjectKey.self, capacity: count) {
        set(UnsafeBufferPointer(start: $0, count: count), at: row)
      }
    } else {
      withUnsafeTemporaryAllocation(of: ObjectKey.self, capacity: count) { keys in
        UnsafeMutableRawBufferPointer(keys).copyMemory(from: raw)
        set(UnsafeBufferPointer(keys), at: row)
      }
    }
  }
}
