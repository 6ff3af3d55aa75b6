import Foundation

/// How a storage type is written to and read from a snapshot column block.
///
/// Types whose every bit pattern is a valid value (integers, `Double`, `Date`, `UUID`,
/// `ObjectKey`) declare `isRaw` and are copied as they are held in memory; the others are
/// written value by value.
protocol SnapshotCoding {
  /// Whether values are copied as raw little-endian memory.
  static var isRaw: Bool { get }
  /// The fewest bytes one encoded value takes (for checking counts against remaining bytes).
  static var minimumEncodedSize: Int { get }
  func encode(into writer: inout ByteWriter)
  static func decode(from reader: inout ByteReader) throws -> Self
}

extension SnapshotCoding {
  static var isRaw: Bool { false }
}

/// A type copied as raw memory.
protocol RawSnapshotCoding: SnapshotCoding {}

extension RawSnapshotCoding {
  static var isRaw: Bool { true }
  static var minimumEncodedSize: Int { MemoryLayout<Self>.stride }
  func encode(into writer: inout ByteWriter) {
    withUnsafeBytes(of: self) { writer.append(raw: $0) }
  }
  static func decode(from reader: inout ByteReader) throws -> Self {
    try reader.readBytes(MemoryLayout<Self>.stride).loadUnaligned(as: Self.self)
  }
}

extension Int64: RawSnapshotCoding {}
extension UInt64: RawSnapshotCoding {}
extension UInt32: RawSnapshotCoding {}
extension Double: RawSnapshotCoding {}
extension Date: RawSnapshotCoding {}
extension UUID: RawSnapshotCoding {}
extension ObjectKey: RawSnapshotCoding {}

extension Bool: SnapshotCoding {
  static var minimumEncodedSize: Int { 1 }
  func encode(into writer: inout ByteWriter) { writer.append(UInt8(self ? 1 : 0)) }
  static func decode(from reader: inout ByteReader) throws -> Bool {
    switch try reader.read(UInt8.self) {
    case 0: return false
    case 1: return true
    case let byte: throw reader.error("\(byte) is not a Bool")
    }
  }
}

extension String: SnapshotCoding {
  static var minimumEncodedSize: Int { 4 }
  func encode(into writer: inout ByteWriter) { writer.append(string: self) }
  static func decode(from reader: inout ByteReader) throws -> String { try reader.readString() }
}

extension Data: SnapshotCoding {
  static var minimumEncodedSize: Int { 4 }
  func encode(into writer: inout ByteWriter) { writer.append(data: self) }
  static func decode(from reader: inout ByteReader) throws -> Data { Data(try reader.readData()) }
}

extension URL: SnapshotCoding {
  static var minimumEncodedSize: Int { 4 }
  func encode(into writer: inout ByteWriter) { writer.append(string: absoluteString) }
  static func decode(from reader: inout ByteReader) throws -> URL {
    let text = try reader.readString()
    guard let url = URL(string: text) else { throw reader.error("'\(text)' is not a URL") }
    return url
  }
}

extension Decimal: SnapshotCoding {
  static var minimumEncodedSize: Int { 4 }
  func encode(into writer: inout ByteWriter) { writer.append(string: description) }
  /// The text `description` wrote; `NaN` for a NaN (which `Decimal(string:)` refuses, so a
  /// store holding one could not be opened again).
  static func decode(from reader: inout ByteReader) throws -> Decimal {
    let text = try reader.readString()
    if text == Decimal.nan.description { return .nan }
    guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
      throw reader.error("'\(text)' is not a decimal number")
    }
    return value
  }
}

extension Optional: SnapshotCoding where Wrapped: SnapshotCoding {
  static var minimumEncodedSize: Int { 1 }
  func encode(into writer: inout ByteWriter) {
    if let self {
      writer.append(UInt8(1))
      self.encode(into: &writer)
    } else {
      writer.append(UInt8(0))
    }
  }
  static func decode(from reader: inout ByteReader) throws -> Wrapped? {
    switch try reader.read(UInt8.self) {
    case 0: return nil
    case 1: return try Wrapped.decode(from: &reader)
    case let byte: throw reader.error("\(byte) is not an optional's tag")
    }
  }
}

extension Array: SnapshotCoding where Element: SnapshotCoding {
  static var minimumEncodedSize: Int { 8 }
  func encode(into writer: inout ByteWriter) {
    writer.append(UInt64(count))
    if Element.isRaw {
      withUnsafeBytes { writer.append(raw: $0) }
    } else {
      for element in self { element.encode(into: &writer) }
    }
  }
  static func decode(from reader: inout ByteReader) throws -> [Element] {
    let count = try reader.readCount(minimumSize: Element.minimumEncodedSize)
    // Not through an uninitialized capacity of 0: that writes the count of the storage every
    // empty array shares, a write that races with other threads reading it.
    if count == 0 { return [] }
    if Element.isRaw {
      let raw = try reader.readBytes(count * MemoryLayout<Element>.stride)
      return [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
        UnsafeMutableRawBufferPointer(buffer).copyMemory(from: raw)
        initialized = count
      }
    }
    var result: [Element] = []
    result.reserveCapacity(count)
    for _ in 0..<count { result.append(try Element.decode(from: &reader)) }
    return result
  }
}
