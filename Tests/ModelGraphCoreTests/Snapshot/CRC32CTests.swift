import Testing

@testable import ModelGraphCore

@Suite("CRC-32C")
struct CRC32CTests {
  /// The checksum computed bit by bit, straight from the polynomial.
  static func reference(_ bytes: some Sequence<UInt8>, seed: UInt32 = 0) -> UInt32 {
    var crc = ~seed
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
    }
    return ~crc
  }

  private func reference(_ bytes: some Sequence<UInt8>, seed: UInt32 = 0) -> UInt32 {
    Self.reference(bytes, seed: seed)
  }

  @Test("the check value of \"123456789\" is 0xE3069283")
  func checkValue() {
    #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
    #expect(CRC32C.checksum([]) == 0)
  }

  @Test("the test vectors of RFC 3720 (iSCSI), B.4")
  func rfc3720() {
    #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
    #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
    #expect(CRC32C.checksum((0..<32).map { UInt8($0) }) == 0x46DD_794E)
    #expect(CRC32C.checksum((0..<32).reversed().map { UInt8($0) }) == 0x113F_DB5C)
  }

  @Test("random bytes of every length to 300 at random alignments agree with the bit-by-bit sum")
  func lengthsAndAlignments() {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<340).map { _ in UInt8.random(in: 0...255, using: &generator) }
    bytes.withUnsafeBytes { raw in
      for length in 0...300 {
        for start in [0, Int.random(in: 1..<8), Int.random(in: 8...40)] {
          let slice = UnsafeRawBufferPointer(rebasing: raw[start..<start + length])
          #expect(CRC32C.checksum(slice) == reference(slice))
        }
      }
    }
  }

  @Test("long random buffers agree with the bit-by-bit sum, seeded or not")
  func longBuffers() {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<70_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
    bytes.withUnsafeBytes { raw in
      for length in [511, 512, 1000, 4096] + (0..<10).map({ _ in Int.random(in: 300...69_000) }) {
        let start = Int.random(in: 0...1000)
        let slice = UnsafeRawBufferPointer(rebasing: raw[start..<start + length])
        let seed = UInt32.random(in: 0...UInt32.max)
        #expect(CRC32C.checksum(slice) == reference(slice))
        #expect(CRC32C.checksum(slice, seed: seed) == reference(slice, seed: seed))
      }
    }
  }

  @Test("a checksum continued from a seed equals the checksum of the whole")
  func seeded() {
    let bytes = (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    bytes.withUnsafeBytes { raw in
      for split in [0, 1, 15, 16, 17, 150, 300, 1200, 2487, 3000] {
        let head = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[..<split]))
        let whole = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[split...]), seed: head)
        #expect(whole == reference(bytes))
      }
    }
  }
}
