extension AnyColumn {
  /// Writes the column's rows: a row count, then the values (raw memory for raw types).
  func encode(into writer: inout ByteWriter) {
    elementType.encodeColumn(self, into: &writer)
  }

  /// Replaces this (empty) column's rows with those a block holds.
  func decode(from reader: inout ByteReader) throws {
    try elementType.decodeColumn(self, from: &reader)
  }
}

extension ColumnValue {
  static func encodeColumn(_ column: AnyColumn, into writer: inout ByteWriter) {
    unsafeDowncast(column, to: Column<Self>.self).encodeValues(into: &writer)
  }

  static func decodeColumn(_ column: AnyColumn, from reader: inout ByteReader) throws {
    try unsafeDowncast(column, to: Column<Self>.self).decodeValues(from: &reader)
  }
}

extension Column {
  func encodeValues(into writer: inout ByteWriter) {
    writer.append(UInt64(count))
    guard let coding = Element.self as? any SnapshotCoding.Type else {
      preconditionFailure("\(Element.self) has no snapshot coding")
    }
    if coding.isRaw {
      forEachChunk { _, values in writer.append(raw: UnsafeRawBufferPointer(values)) }
    } else {
      forEachChunk { _, values in
        for value in values { (value as! any SnapshotCoding).encode(into: &writer) }
      }
    }
  }

  func decodeValues(from reader: inout ByteReader) throws {
    guard let coding = Element.self as? any SnapshotCoding.Type else {
      throw reader.error("\(Element.self) has no snapshot coding")
    }
    let count = try reader.readCount(minimumSize: coding.minimumEncodedSize)
    grow(to: count)
    if coding.isRaw {
      let raw = try reader.readBytes(count * MemoryLayout<Element>.stride)
      var row = 0
      while row < count {
        let chunkCount = min(count - row, 1 << AnyColumn.chunkShift)
        let source = UnsafeRawBufferPointer(
          rebasing: raw[
            row * MemoryLayout<Element>.stride..<(row + chunkCount) * MemoryLayout<Element>.stride])
        let index = row >> AnyColumn.chunkShift
        UnsafeMutableRawPointer(bases[index]).copyMemory(
          from: source.baseAddress!, byteCount: source.count)
        row += chunkCount
      }
    } else {
      for row in 0..<count {
        self[row] = try coding.decode(from: &reader) as! Element
      }
    }
  }
}
