import ModelGraphCore

/// Rewrites the checksums of a journal's header and of every record whose length fits, so a
/// mutated input reaches the record parser instead of stopping at the first mismatch.
///
/// Follows the journal framing of the format article: a 36-byte header whose last 4 bytes are
/// the checksum of the first 32, then records of magic (4), length (8), checksum (4),
/// generation (8), number (8) and payload; a record's checksum covers everything but itself.
enum JournalChecksumRepair {
  static func repaired(_ input: [UInt8]) -> [UInt8] {
    var bytes = input
    guard bytes.count >= 36 else { return bytes }
    store(checksum(bytes, 0..<32), in: &bytes, at: 32)
    var position = 36
    while position + 32 <= bytes.count {
      var length: UInt64 = 0
      for index in 0..<8 { length |= UInt64(bytes[position + 4 + index]) << (8 * index) }
      guard length <= UInt64(bytes.count - position - 32) else { break }
      let end = position + 32 + Int(length)
      let head = checksum(bytes, position..<position + 12)
      let crc = bytes.withUnsafeBytes {
        CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[(position + 16)..<end]), seed: head)
      }
      store(crc, in: &bytes, at: position + 12)
      position = end
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
