import ModelGraphCore

/// Rewrites the header's and every complete block's CRC-32C so that a mutated input reaches
/// the parsers behind the checksums instead of stopping at the first mismatch.
///
/// Follows the block framing of the format article: a 28-byte header whose last 4 bytes are
/// the checksum of the first 24, then blocks of kind (4), length (8), payload and checksum (4).
/// Stops at the first block whose length runs past the end.
enum ChecksumRepair {
  static func repaired(_ input: [UInt8]) -> [UInt8] {
    var bytes = input
    guard bytes.count >= 28 else { return bytes }
    store(checksum(bytes, 0..<24), in: &bytes, at: 24)
    var position = 28
    while position + 12 <= bytes.count {
      var length: UInt64 = 0
      for index in 0..<8 { length |= UInt64(bytes[position + 4 + index]) << (8 * index) }
      guard length <= UInt64(bytes.count - position - 12) else { break }
      let end = position + 12 + Int(length)
      guard end + 4 <= bytes.count else { break }
      store(checksum(bytes, position..<end), in: &bytes, at: end)
      position = end + 4
    }
    return bytes
  }

  private static func checksum(_ bytes: [UInt8], _ range: Range<Int>) -> UInt32 {
    bytes.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[range])) }
  }

  private static func store(_ value: UInt32, in bytes: inout [UInt8], at offset: Int) {
    for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
  }
}
