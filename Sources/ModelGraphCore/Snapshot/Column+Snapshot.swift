extension AnyColumn {
  /// Writes the column's rows: a row count, then the values (raw memory for raw types).
  func encode(into writer: inout ByteWriter) {
    if let lists = self as? KeyListColumn { return lists.encodeLists(into: &writer) }
    elementType.encodeColumn(self, into: &writer)
  }

  /// Replaces this (empty) column's rows with those a block holds.
  func decode(from reader: inout ByteReader) throws {
    if let lists = self as? KeyListColumn { return try lists.decodeLists(from: &reader) }
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
      encodeValues(as: coding, into: &writer)
    }
  }

  /// Writes the values one by one as `Coded`, which is `Element` (opened once per column, so
  /// no value is boxed or cast).
  private func encodeValues<Coded: SnapshotCoding>(
    as _: Coded.Type, into writer: inout ByteWriter
  ) {
    precondition(Coded.self == Element.self)
    forEachChunk { _, values in
      values.withMemoryRebound(to: Coded.self) { ColumnCoding.encode($0, into: &writer) }
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
      try decodeValues(as: coding, count: count, from: &reader)
    }
  }

  /// Reads `count` values one by one as `Coded`, which is `Element`, straight into the
  /// column's chunks (a new column owns them alone).
  private func decodeValues<Coded: SnapshotCoding>(
    as _: Coded.Type, count: Int, from reader: inout ByteReader
  ) throws {
    precondition(Coded.self == Element.self)
    var row = 0
    while row < count {
      let chunkCount = min(count - row, 1 << AnyColumn.chunkShift)
      let base = UnsafeMutableRawPointer(bases[row >> AnyColumn.chunkShift])
        .assumingMemoryBound(to: Coded.self)
      try ColumnCoding.decode(
        into: UnsafeMutableBufferPointer(start: base, count: chunkCount), from: &reader)
      row += chunkCount
    }
  }
}

/// The per-value loops of columns whose values are not raw memory, specialized for the types
/// model columns hold most (the generic versions serve the rest).
enum ColumnCoding {
  @_specialize(where Coded == String)
  @_specialize(where Coded == String?)
  @_specialize(where Coded == Bool)
  @_specialize(where Coded == ObjectKey?)
  @_specialize(where Coded == [ObjectKey])
  @_specialize(where Coded == [String])
  static func encode<Coded: SnapshotCoding>(
    _ values: UnsafeBufferPointer<Coded>, into writer: inout ByteWriter
  ) {
    for value in values { value.encode(into: &writer) }
  }

  /// Overwrites `values` (initialized with placeholders) with decoded values.
  @_specialize(where Coded == String)
  @_specialize(where Coded == String?)
  @_specialize(where Coded == Bool)
  @_specialize(where Coded == ObjectKey?)
  @_specialize(where Coded == [ObjectKey])
  @_specialize(where Coded == [String])
  static func decode<Coded: SnapshotCoding>(
    into values: UnsafeMutableBufferPointer<Coded>, from reader: inout ByteReader
  ) throws {
    for index in values.indices { values[index] = try Coded.decode(from: &reader) }
  }
}
