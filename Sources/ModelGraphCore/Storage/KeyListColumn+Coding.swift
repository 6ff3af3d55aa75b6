/// Snapshot and journal coding of a to-many column: byte for byte what a column of
/// `[ObjectKey]` writes (a row count, then per row a key count and the keys as raw memory).
extension KeyListColumn {
  /// Writes every row: the row count, then each row's list.
  func encodeLists(into writer: inout ByteWriter) {
    writer.append(UInt64(count))
    for row in 0..<count { encodeList(at: row, into: &writer) }
  }

  /// Replaces this (empty) column's rows with those `reader` holds.
  func decodeLists(from reader: inout ByteReader) throws {
    let rows = try reader.readCount(minimumSize: 8)
    grow(to: rows)
    for row in 0..<rows { try decodeList(at: row, from: &reader) }
  }

  /// Writes the list at `row`: its key count, then its keys.
  func encodeList(at row: Int, into writer: inout ByteWriter) {
    withKeys(at: row) { keys in
      writer.append(UInt64(keys.count))
      writer.append(raw: UnsafeRawBufferPointer(keys))
    }
  }

  /// Reads one list into `row`.
  func decodeList(at row: Int, from reader: inout ByteReader) throws {
    let stride = MemoryLayout<ObjectKey>.stride
    let count = try reader.readCount(minimumSize: stride)
    let raw = try reader.readBytes(count * stride)
    let keys = [ObjectKey](unsafeUninitializedCapacity: count) { buffer, initialized in
      UnsafeMutableRawBufferPointer(buffer).copyMemory(from: raw)
      initialized = count
    }
    self[row] = keys
  }
}
