extension AnyColumn {
  /// Writes the column's rows in the layout of file format `format`: a row count, then the
  /// values (raw memory for raw types; from version 4, a ``ColumnLayout`` for the types it has;
  /// from version 7, a ``PackedNumberLayout`` for `Double` and `Date`).
  func encode(into writer: inout ByteWriter, format: UInt32 = SnapshotFormat.version) {
    if let lists = self as? KeyListColumn {
      return lists.encodeLists(into: &writer, format: format)
    }
    elementType.encodeColumn(self, into: &writer, format: format)
  }

  /// Replaces this (empty) column's rows with those a block of file format `format` holds.
  func decode(from reader: inout ByteReader, format: UInt32 = SnapshotFormat.version) throws {
    if let lists = self as? KeyListColumn {
      return try lists.decodeLists(from: &reader, format: format)
    }
    try elementType.decodeColumn(self, from: &reader, format: format)
  }
}

extension ColumnValue {
  static func encodeColumn(_ column: AnyColumn, into writer: inout ByteWriter, format: UInt32) {
    unsafeDowncast(column, to: Column<Self>.self).encodeValues(into: &writer, format: format)
  }

  static func decodeColumn(_ column: AnyColumn, from reader: inout ByteReader, format: UInt32)
    throws
  {
    try unsafeDowncast(column, to: Column<Self>.self).decodeValues(from: &reader, format: format)
  }
}

extension Column {
  /// Calls `body` with each chunk's rows below ``count``, to overwrite (a new column owns its
  /// chunks alone).
  func forEachChunkForWriting(_ body: (UnsafeMutableBufferPointer<Element>) throws -> Void)
    rethrows
  {
    var start = 0
    var index = 0
    while start < rowCount {
      let count = min(rowCount - start, 1 << AnyColumn.chunkShift)
      if strings != nil {
        try withStringChunkForWriting(index, body)
        start += count
        index += 1
        continue
      }
      try body(UnsafeMutableBufferPointer(start: base(index), count: count))
      start += count
      index += 1
    }
  }

  func encodeValues(into writer: inout ByteWriter, format: UInt32) {
    writer.append(UInt64(count))
    guard let coding = Element.self as? any SnapshotCoding.Type else {
      preconditionFailure("\(Element.self) has no snapshot coding")
    }
    if ColumnLayout.encode(self, format: format, into: &writer) { return }
    if PackedNumberLayout.handles(Element.self, format: format) {
      return PackedNumberLayout.encode(self, into: &writer)
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

  func decodeValues(from reader: inout ByteReader, format: UInt32) throws {
    guard let coding = Element.self as? any SnapshotCoding.Type else {
      throw reader.error("\(Element.self) has no snapshot coding")
    }
    if ColumnLayout.handles(Element.self, format: format) {
      let count = try reader.readCount(
        minimumSize: ColumnLayout.minimumRowSize(Element.self, format: format))
      guard try ColumnLayout.decode(self, count: count, format: format, from: &reader) else {
        preconditionFailure("ColumnLayout.handles and decode disagree on \(Element.self)")
      }
      return
    }
    if PackedNumberLayout.handles(Element.self, format: format) {
      return try PackedNumberLayout.decode(self, from: &reader)
    }
    let count = try reader.readCount(minimumSize: coding.minimumEncodedSize)
    if coding.isRaw {
      // Raw values are copied straight into new chunks: no placeholder is written first.
      let raw = try reader.readBytes(count * MemoryLayout<Element>.stride)
      load(count: count) { start, values, rows in
        UnsafeMutableRawPointer(values).copyMemory(
          from: raw.baseAddress! + start * MemoryLayout<Element>.stride,
          byteCount: rows * MemoryLayout<Element>.stride)
      }
    } else {
      grow(to: count)
      try decodeValues(as: coding, count: count, from: &reader)
    }
  }

  /// Reads `count` values one by one as `Coded`, which is `Element`, straight into the
  /// column's chunks (a new column owns them alone).
  private func decodeValues<Coded: SnapshotCoding>(
    as _: Coded.Type, count: Int, from reader: inout ByteReader
  ) throws {
    precondition(Coded.self == Element.self)
    if strings != nil {
      return try forEachChunkForWriting { values in
        try values.withMemoryRebound(to: Coded.self) {
          try ColumnCoding.decode(into: $0, from: &reader)
        }
      }
    }
    var row = 0
    while row < count {
      let chunkCount = min(count - row, 1 << AnyColumn.chunkShift)
      let base = UnsafeMutableRawPointer(base(row >> AnyColumn.chunkShift))
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
  @_specialize(where Coded == [String])
  static func decode<Coded: SnapshotCoding>(
    into values: UnsafeMutableBufferPointer<Coded>, from reader: inout ByteReader
  ) throws {
    for index in values.indices { values[index] = try Coded.decode(from: &reader) }
  }
}
