extension CRC32C {
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

  /// The checksum of `bytes` from `seed`, slicing-by-16: for processors without a CRC
  /// instruction, and the reference the instructions are tested against.
  ///
  /// - Complexity: O(n).
  static func tableChecksum(_ bytes: UnsafeRawBufferPointer, seed: UInt32) -> UInt32 {
    guard var pointer = bytes.baseAddress else { return seed }
    var crc = ~seed
    var count = bytes.count
    let tables = self.tables
    while count >= 16 {
      crc = step(crc, pointer, tables)
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

  /// The register after the 16 bytes at `pointer`, from register `crc`.
  ///
  /// Only the first four bytes mix with the register; the other twelve index their tables
  /// straight from memory, and the lookups are joined as a tree, so the next step waits on four
  /// lookups and three XORs, not on a chain of sixteen (which made this about half as fast).
  @inline(__always)
  private static func step(
    _ crc: UInt32, _ pointer: UnsafeRawPointer, _ tables: UnsafePointer<UInt32>
  ) -> UInt32 {
    /// The entry for byte `index` of the 16, which is followed by `15 - index` bytes.
    @inline(__always) func byte(_ index: Int) -> UInt32 {
      tables[(15 &- index) &* 256 &+ Int(pointer.load(fromByteOffset: index, as: UInt8.self))]
    }
    /// The entry of table `slice` for the low byte of `value`.
    @inline(__always) func entry(_ slice: Int, _ value: UInt32) -> UInt32 {
      tables[slice &* 256 &+ Int(truncatingIfNeeded: value & 0xFF)]
    }
    let mixed = UInt32(littleEndian: pointer.loadUnaligned(as: UInt32.self)) ^ crc
    let rest =
      ((byte(4) ^ byte(5)) ^ (byte(6) ^ byte(7))) ^ ((byte(8) ^ byte(9)) ^ (byte(10) ^ byte(11)))
      ^ ((byte(12) ^ byte(13)) ^ (byte(14) ^ byte(15)))
    let head =
      (entry(15, mixed) ^ entry(14, mixed >> 8)) ^ (entry(13, mixed >> 16) ^ entry(12, mixed >> 24))
    return rest ^ head
  }
}
