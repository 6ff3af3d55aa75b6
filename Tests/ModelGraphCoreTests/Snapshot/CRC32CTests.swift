import Testing

@testable import ModelGraphCore

@Suite("CRC-32C")
struct CRC32CTests {
  /// The checksum computed bit by bit, straight from the polynomial.
  private func reference(_ bytes: some Sequence<UInt8>, seed: UInt32 = 0) -> UInt32 {
    var crc = ~seed
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
    }
    return ~crc
  }

  @Test("the check value of \"123456789\" is 0xE3069283")
  func checkValue() {
    #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
    #expect(CRC32C.checksum([]) == 0)
  }

  @Test("every length and alignment up to 100 bytes agrees with the bit-by-bit checksum")
  func lengthsAndAlignments() {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<140).map { _ in UInt8.random(in: 0...255, using: &generator) }
    bytes.withUnsafeBytes { raw in
      for start in 0..<20 {
        for length in 0...100 {
          let slice = UnsafeRawBufferPointer(rebasing: raw[start..<start + length])
          #expect(CRC32C.checksum(slice) == reference(slice))
        }
      }
    }
  }

  @Test("a checksum continued from a seed equals the checksum of the whole")
  func seeded() {
    let bytes = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    bytes.withUnsafeBytes { raw in
      for split in [0, 1, 15, 16, 17, 150, 300] {
        let head = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[..<split]))
        let whole = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[split...]), seed: head)
        #expect(whole == reference(bytes))
      }
    }
  }
}
