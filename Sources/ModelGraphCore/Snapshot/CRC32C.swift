/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), slicing-by-16.
///
/// The checksum of every block of a snapshot file. `CRC32C.checksum([UInt8]("123456789".utf8))`
/// is `0xE3069283`.
public enum CRC32C {
  /// Sixteen tables of 256 entries: table `k` holds the CRC of a byte followed by `k` zero bytes.
  /// Allocated once and never freed, so the loop reads them through a plain pointer.
  nonisolated(unsafe) private static let tables: UnsafePointer<UInt32> = {
    let tables = UnsafeMutablePointer<UInt32>.allocate(capacity: 16 * 256)
    for byte in 0..<256 {
      var crc = UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
      tables[byte] = crc
    }
    for slice in 1..<16 {
      for byte in 0..<256 {
        let previous = tables[(slice - 1) * 256 + byte]
        tables[slice * 256 + byte] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
      }
    }
    return UnsafePointer(tables)
  }()

  /// The checksum of `bytes`, continuing from `seed` (the checksum of the bytes before them).
  ///
  /// - Complexity: O(n).
  public static func checksum(_ bytes: UnsafeRawBufferPointer, seed: UInt32 = 0) -> UInt32 {
    guard var pointer = bytes.baseAddress else { return seed }
    var crc = ~seed
    var count = bytes.count
    let tables = self.tables
    /// The entry of table `slice` for the low byte of `value`.
    @inline(__always) func entry(_ slice: Int, _ value: UInt64) -> UInt32 {
      tables[slice &* 256 &+ Int(truncatingIfNeeded: value & 0xFF)]
    }
    while count >= 16 {
      let low = UInt64(littleEndian: pointer.loadUnaligned(as: UInt64.self)) ^ UInt64(crc)
      let high = UInt64(littleEndian: pointer.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
      crc =
        entry(15, low) ^ entry(14, low >> 8) ^ entry(13, low >> 16) ^ entry(12, low >> 24)
        ^ entry(11, low >> 32) ^ entry(10, low >> 40) ^ entry(9, low >> 48) ^ entry(8, low >> 56)
        ^ entry(7, high) ^ entry(6, high >> 8) ^ entry(5, high >> 16) ^ entry(4, high >> 24)
        ^ entry(3, high >> 32) ^ entry(2, high >> 40) ^ entry(1, high >> 48) ^ entry(0, high >> 56)
      pointer += 16
      count -= 16
    }
    while count > 0 {
      crc = (crc >> 8) ^ tables[Int((crc ^ UInt32(pointer.load(as: UInt8.self))) & 0xFF)]
      pointer += 1
      count -= 1
    }
    return ~crc
  }

  /// The checksum of `bytes`.
  public static func checksum(_ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBytes { checksum($0) }
  }
}
