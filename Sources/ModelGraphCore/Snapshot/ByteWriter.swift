/// Appends little-endian integers and bytes to a growing buffer.
struct ByteWriter {
  var bytes: [UInt8] = []
  /// The longest string or data value a 4-byte length can announce.
  var lengthLimit = Int(UInt32.max)
  /// The byte count of the first string or data value longer than ``lengthLimit``; the bytes
  /// written are then unusable.
  var oversized: Int?
  /// How many bytes were written before ``bytes`` (handed on and removed).
  var flushed = 0

  mutating func append<T: FixedWidthInteger>(_ value: T) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  mutating func append(raw: UnsafeRawBufferPointer) {
    bytes.append(contentsOf: raw)
  }

  /// Appends `count` bytes that `body` fills in (they start zeroed).
  mutating func appendUninitialized(
    _ count: Int, _ body: (UnsafeMutableRawBufferPointer) -> Void
  ) {
    let start = bytes.count
    bytes.append(contentsOf: repeatElement(0, count: count))
    bytes.withUnsafeMutableBytes { body(UnsafeMutableRawBufferPointer(rebasing: $0[start...])) }
  }

  mutating func append(string: String) {
    var string = string
    string.withUTF8 { utf8 in
      guard utf8.count <= lengthLimit else {
        oversized = oversized ?? utf8.count
        return
      }
      append(UInt32(utf8.count))
      bytes.append(contentsOf: utf8)
    }
  }

  mutating func append(data: some Collection<UInt8>) {
    guard data.count <= lengthLimit else {
      oversized = oversized ?? data.count
      return
    }
    append(UInt32(data.count))
    bytes.append(contentsOf: data)
  }
}
