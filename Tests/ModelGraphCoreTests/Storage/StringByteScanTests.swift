import Testing

@testable import ModelGraphCore

/// The word-at-a-time byte scans of the string paths, at every length and every position of the
/// byte they look for (the whole words, the tail and the boundary between them).
@Suite("String byte scans")
struct StringByteScanTests {
  @Test("isASCII finds a byte of 0x80 or more at every position of every length to 40")
  func asciiScan() {
    for length in 0...40 {
      let plain = [UInt8](repeating: 0x61, count: length)
      #expect(plain.withUnsafeBytes { ColumnLayout.isASCII($0) }, "length \(length)")
      for position in 0..<length {
        for high: UInt8 in [0x80, 0xC3, 0xFF] {
          var bytes = plain
          bytes[position] = high
          #expect(
            !bytes.withUnsafeBytes { ColumnLayout.isASCII($0) },
            "length \(length), \(high) at \(position)")
        }
      }
    }
  }

  @Test("a loaded row is simple unless a byte of 0x80 or more or a carriage return is in it")
  func complexRows() {
    for length in 1...40 {
      for position in -1..<length {
        for special: [UInt8] in [[0x0D], [0xC3, 0xA9]] where position + special.count <= length {
          var bytes = [UInt8](repeating: 0x61, count: length)
          if position >= 0 {
            bytes.replaceSubrange(position..<position + special.count, with: special)
          }
          let chunk = StringChunk()
          chunk.load(
            rows: 2, byteCount: length + 3, nilBits: { _ in 0 },
            fill: { offsets, arena in
              offsets[1] = 3
              offsets[2] = UInt32(length + 3)
              for index in 0..<3 { arena[index] = 0x62 }
              for index in 0..<length { arena[3 + index] = bytes[index] }
            })
          #expect(chunk.isSimple(0))
          #expect(
            chunk.isSimple(1) == (position < 0), "length \(length), \(special) at \(position)")
          #expect(chunk.string(1) == String(decoding: bytes, as: UTF8.self))
        }
      }
    }
  }
}
