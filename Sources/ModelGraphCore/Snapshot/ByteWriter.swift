/// Appends little-endian integers and bytes to a growing buffer.
struct ByteWriter {
  var bytes: [UInt8] = []

  mutating func append<T: FixedWidthInteger>(_ value: T) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  mutating func append(raw: UnsafeRawBufferPointer) {
    bytes.append(contentsOf: raw)
  }

  mutating func append(string: String) {
    var string = string
    string.withUTF8 { utf8 in
      append(UInt32(utf8.count))
      bytes.append(contentsOf: utf8)
    }
  }

  mutating func append(data: some Collection<UInt8>) {
    append(UInt32(data.count))
    bytes.append(contentsOf: data)
  }
}
