/// The whole-column layouts of format versions 4 and later, for the column types that are not
/// raw memory but hold most of a store: strings as one UTF-8 arena plus offsets, `Bool` as
/// bytes, to-one keys as compact keys (``KeyCoding``) and to-many keys (a ``KeyListColumn``,
/// which `KeyListColumn+Coding` dispatches here) as their counts plus one array of compact keys.
/// Format 6 writes string lengths, keys and `UInt32` columns as varints (see
/// `ColumnLayout+Compact`).
///
/// Each function sees the column's values chunk by chunk, so no value is boxed; the readers check
/// every length and offset against the bytes that remain before anything is allocated.
enum ColumnLayout {
  /// Whether `type` has a whole-column layout in file format `format` (the others are coded
  /// value by value).
  static func handles(_ type: Any.Type, format: UInt32) -> Bool {
    guard format >= SnapshotFormat.columnLayoutVersion else { return false }
    if type == UInt32.self { return format >= SnapshotFormat.compactLayoutVersion }
    return type == String.self || type == String?.self || type == Bool.self
      || type == ObjectKey?.self
  }

  /// Writes `column`'s values (the row count is already written) in the layout of file format
  /// `format`; `false` when its type has none there.
  static func encode(_ column: AnyColumn, format: UInt32, into writer: inout ByteWriter) -> Bool {
    guard handles(column.elementType, format: format) else { return false }
    let compact = format >= SnapshotFormat.compactLayoutVersion
    switch column {
    case let strings as Column<String>: encodeStrings(strings, format: format, into: &writer)
    case let strings as Column<String?>: encodeStrings(strings, format: format, into: &writer)
    case let flags as Column<Bool>: encodeBools(flags, into: &writer)
    case let keys as Column<ObjectKey?>:
      if compact { encodeCompactKeys(keys, into: &writer) } else { encodeKeys(keys, into: &writer) }
    case let words as Column<UInt32>: encodeWords(words, into: &writer)
    default: return false
    }
    return true
  }

  /// Reads `count` values into `column` (new and empty) from the layout of file format
  /// `format`; `false` when its type has none there.
  static func decode(
    _ column: AnyColumn, count: Int, format: UInt32, from reader: inout ByteReader
  ) throws -> Bool {
    guard handles(column.elementType, format: format) else { return false }
    let compact = format >= SnapshotFormat.compactLayoutVersion
    switch column {
    case let strings as Column<String>:
      strings.grow(to: count)
      try decodeStrings(strings, count: count, format: format, from: &reader)
    case let strings as Column<String?>:
      strings.grow(to: count)
      try decodeStrings(strings, count: count, format: format, from: &reader)
    case let flags as Column<Bool>: try decodeBools(flags, count: count, from: &reader)
    case let keys as Column<ObjectKey?>:
      if compact {
        try decodeCompactKeys(keys, count: count, from: &reader)
      } else {
        try decodeKeys(keys, count: count, from: &reader)
      }
    case let words as Column<UInt32>: try decodeWords(words, count: count, from: &reader)
    default: return false
    }
    return true
  }

  /// The fewest bytes a row takes in the layout of `type` in file format `format`, for checking
  /// the row count: one byte in the compact layouts of format 6.
  static func minimumRowSize(_ type: Any.Type, format: UInt32) -> Int {
    if format >= SnapshotFormat.compactLayoutVersion { return 1 }
    switch type {
    case is String.Type: return 4
    case is Bool.Type: return 1
    case is ObjectKey?.Type: return KeyCoding.minimumSize
    default: return 0
    }
  }
}

// MARK: Strings

/// A string column's layout: for an optional column a presence bitmap (bit `row % 8` of byte
/// `row / 8`, 1 for a value, padding bits 0); then the offset width (4 or 8), the end offset of
/// each row's UTF-8 bytes in the arena (an absent value's range is empty), the arena's length
/// and the arena.
protocol ArenaString {
  /// The absent value; `nil` when the type has none.
  static var arenaAbsent: Self? { get }
}

extension String: ArenaString {
  static var arenaAbsent: String? { nil }
}

extension Optional: ArenaString where Wrapped == String {
  static var arenaAbsent: String?? { .some(nil) }
}

extension ColumnLayout {
  /// Writes a `String` or `String?` column (whose values live in UTF-8 arenas) in the
  /// string layout.
  static func encodeStrings<Value: ArenaString & ColumnValue>(
    _ column: Column<Value>, format: UInt32, into writer: inout ByteWriter
  ) {
    encodeArena(
      column.stringStorage, count: column.count, isOptional: Value.arenaAbsent != nil,
      format: format, into: &writer)
  }

  /// Reads `count` rows of a `String` or `String?` column in the string layout.
  static func decodeStrings<Value: ArenaString & ColumnValue>(
    _ column: Column<Value>, count: Int, format: UInt32, from reader: inout ByteReader
  ) throws {
    try decodeArena(
      column.stringStorage, count: count, isOptional: Value.arenaAbsent != nil, format: format,
      from: &reader)
  }
}

extension ColumnLayout {
  /// Whether every byte of `bytes` is below 0x80.
  ///
  /// The words are counted first and read by a range loop (no overflow check per word), which
  /// the compiler vectorizes.
  static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
    let words = bytes.count / 8
    var high: UInt64 = 0
    for word in 0..<words {
      high |= bytes.loadUnaligned(fromByteOffset: word &* 8, as: UInt64.self)
    }
    for index in words * 8..<bytes.count { high |= UInt64(bytes[index]) }
    return high & 0x8080_8080_8080_8080 == 0
  }

  /// The string of `utf8`, or `nil` when it is not valid UTF-8. ASCII bytes are taken as they
  /// are; other bytes are decoded and compared with the result, which differs when decoding
  /// had to repair them.
  @inline(__always)
  static func makeString(_ utf8: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String? {
    var string = String(decoding: utf8, as: UTF8.self)
    if isASCII { return string }
    let same = string.withUTF8 { $0.elementsEqual(utf8) }
    return same ? string : nil
  }
}

// MARK: Booleans

extension ColumnLayout {
  /// One byte a row, 0 or 1.
  static func encodeBools(_ column: Column<Bool>, into writer: inout ByteWriter) {
    column.forEachChunk { _, values in writer.append(raw: UnsafeRawBufferPointer(values)) }
  }

  /// Reads `count` rows of bytes, each 0 or 1, into `column` (new and empty).
  static func decodeBools(_ column: Column<Bool>, count: Int, from reader: inout ByteReader)
    throws
  {
    let start = reader.position
    let bytes = try reader.readBytes(count)
    // Checked eight bytes at a time: no bit but the lowest of any byte may be set.
    var index = 0
    while index + 8 <= count {
      if bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0xFEFE_FEFE_FEFE_FEFE != 0 {
        break
      }
      index += 8
    }
    while index < count {
      guard bytes[index] <= 1 else {
        throw reader.error("\(bytes[index]) is not a Bool", at: start + index)
      }
      index += 1
    }
    column.load(count: count) { start, values, rows in
      for row in 0..<rows { (values + row).initialize(to: bytes[start + row] == 1) }
    }
  }
}
