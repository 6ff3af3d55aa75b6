/// Reads little-endian integers and bytes from a block, checking every length against the
/// bytes that remain before anything is allocated.
struct ByteReader {
  let bytes: UnsafeRawBufferPointer
  /// Where `bytes` starts in the file, for error offsets.
  let fileOffset: Int
  let path: String
  let section: String
  private(set) var position = 0

  init(_ bytes: UnsafeRawBufferPointer, fileOffset: Int, path: String, section: String) {
    self.bytes = bytes
    self.fileOffset = fileOffset
    self.path = path
    self.section = section
  }

  var remaining: Int { bytes.count - position }
  var isAtEnd: Bool { position == bytes.count }

  func error(_ message: String, code: SnapshotError.Code = .malformed) -> SnapshotError {
    SnapshotError(
      code, path: path, section: section, offset: fileOffset + position, message: message)
  }

  /// An error at `position` of the bytes read (not the reader's position).
  func error(_ message: String, at position: Int) -> SnapshotError {
    SnapshotError(
      .malformed, path: path, section: section, offset: fileOffset + position, message: message)
  }

  /// Fails unless `count` more bytes remain.
  func require(_ count: Int) throws {
    guard count >= 0, count <= remaining else {
      throw error("needs \(count) bytes, \(remaining) remain", code: .truncated)
    }
  }

  mutating func read<T: FixedWidthInteger>(_: T.Type) throws -> T {
    try require(MemoryLayout<T>.size)
    let value = bytes.loadUnaligned(fromByteOffset: position, as: T.self)
    position += MemoryLayout<T>.size
    return T(littleEndian: value)
  }

  /// Checks, without reading it, that the row count a column's payload starts with (every
  /// layout starts with one, 8 bytes) is the table's `rowCount`: the layouts that pack many
  /// rows in a byte (a packed block of one repeated value) then allocate no more rows than
  /// the table block announced, which the reader's memory budget covers.
  func expectRowCount(_ rowCount: Int) throws {
    var peek = self
    let announced = try peek.read(UInt64.self)
    guard announced == UInt64(rowCount) else {
      throw error("column holds \(announced) rows, the table \(rowCount)")
    }
  }

  /// A count that must fit in the remaining bytes at `minimumSize` bytes per item.
  mutating func readCount(minimumSize: Int) throws -> Int {
    let start = position
    let count = try read(UInt64.self)
    guard count <= UInt64(Int.max), Int(count) <= remaining / max(minimumSize, 1) else {
      throw SnapshotError(
        .malformed, path: path, section: section, offset: fileOffset + start,
        message: "count \(count) does not fit in the \(remaining) bytes left")
    }
    return Int(count)
  }

  mutating func readBytes(_ count: Int) throws -> UnsafeRawBufferPointer {
    try require(count)
    defer { position += count }
    return UnsafeRawBufferPointer(rebasing: bytes[position..<position + count])
  }

  mutating func readString() throws -> String {
    let count = Int(try read(UInt32.self))
    let raw = try readBytes(count)
    guard
      let string = ColumnLayout.makeString(
        raw.assumingMemoryBound(to: UInt8.self), isASCII: ColumnLayout.isASCII(raw))
    else {
      throw error("a string is not valid UTF-8")
    }
    return string
  }

  mutating func readData() throws -> [UInt8] {
    let count = Int(try read(UInt32.self))
    return Array(try readBytes(count))
  }
}
