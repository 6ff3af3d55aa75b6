import Foundation
import Testing

@testable import ModelGraphCore

@Suite("CRC-32C implementations")
struct CRC32CImplementationTests {
  /// Random bytes from a seeded generator, so a failure repeats.
  private func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var state = seed
    return (0..<count).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return UInt8(truncatingIfNeeded: state >> 33)
    }
  }

  /// The checksum computed bit by bit, straight from the polynomial.
  private func reference(_ bytes: UnsafeRawBufferPointer, seed: UInt32) -> UInt32 {
    CRC32CTests.reference(bytes, seed: seed)
  }

  @Test("the processor's CRC instructions are used where /proc/cpuinfo lists them")
  func usesTheInstructions() throws {
    #if os(Linux)
      let info = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
      let flags = Set(
        info.split(separator: "\n").first { $0.hasPrefix("flags") || $0.hasPrefix("Features") }?
          .split(separator: " ").map(String.init) ?? [])
      #if arch(x86_64)
        let expected: CRC32C.Implementation =
          flags.contains("sse4_2")
          ? (flags.contains("pclmulqdq") ? .interleaved : .serial) : .tables
      #elseif arch(arm64)
        let expected: CRC32C.Implementation = flags.contains("crc32") ? .serial : .tables
      #else
        let expected = CRC32C.Implementation.tables
      #endif
      #expect(CRC32C.implementation == expected)
    #endif
  }

  @Test(
    "every length to 300 at every alignment to 16, from random seeds, agrees with the bit-by-bit sum",
    arguments: CRC32C.Implementation.supported)
  func shortBuffers(_ implementation: CRC32C.Implementation) {
    let data = bytes(340, seed: 1)
    var seeds = bytes(4 * 301 * 16, seed: 2)[...]
    data.withUnsafeBytes { raw in
      for length in 0...300 {
        for start in 0..<16 {
          let slice = UnsafeRawBufferPointer(rebasing: raw[start..<start + length])
          let seed = seeds.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
          seeds = seeds.dropFirst(4)
          let expected = reference(slice, seed: seed)
          #expect(CRC32C.checksum(slice, seed: seed, using: implementation) == expected)
          #expect(
            CRC32C.checksum(slice, seed: 0, using: implementation) == reference(slice, seed: 0))
        }
      }
    }
  }

  /// Lengths around the three-stream rounds (3 × 256 and 3 × 4096 bytes) and their multiples,
  /// so every mix of long rounds, short rounds, 8-byte steps and tail bytes is met.
  static let longLengths: [Int] = {
    var lengths: Set<Int> = [0, 1, 7, 8, 9, 1_048_576 + 13]
    for round in [768, 12_288] {
      for multiple in 1...3 {
        for delta in -9...9 { lengths.insert(round * multiple + delta) }
      }
    }
    for short in 0...16 { lengths.insert(12_288 + short * 768 + short % 8) }
    return lengths.sorted()
  }()

  @Test(
    "long buffers agree with the tables at every mix of rounds, seeded or not",
    arguments: CRC32C.Implementation.supported)
  func longBuffers(_ implementation: CRC32C.Implementation) {
    let data = bytes(1_048_576 + 64, seed: 3)
    data.withUnsafeBytes { raw in
      for (index, length) in Self.longLengths.enumerated() {
        let start = index % 13
        let slice = UnsafeRawBufferPointer(rebasing: raw[start..<start + length])
        let seed = UInt32(truncatingIfNeeded: index &* 2_654_435_761)
        for seed in [0, seed] {
          #expect(
            CRC32C.checksum(slice, seed: seed, using: implementation)
              == CRC32C.tableChecksum(slice, seed: seed), "length \(length) from \(start)")
        }
      }
    }
  }

  @Test("the tables agree with the bit-by-bit sum on long buffers")
  func tablesOnLongBuffers() {
    let data = bytes(30_000, seed: 4)
    data.withUnsafeBytes { raw in
      for length in [767, 768, 769, 12_287, 12_288, 12_289, 29_000] {
        let slice = UnsafeRawBufferPointer(rebasing: raw[3..<3 + length])
        #expect(
          CRC32C.tableChecksum(slice, seed: 0x1234_5678) == reference(slice, seed: 0x1234_5678))
      }
    }
  }

  @Test(
    "a checksum continued from a seed equals the one-shot checksum, at every split",
    arguments: CRC32C.Implementation.supported)
  func chained(_ implementation: CRC32C.Implementation) {
    let data = bytes(2_000, seed: 5)
    data.withUnsafeBytes { raw in
      let whole = reference(raw, seed: 0)
      #expect(CRC32C.checksum(raw, seed: 0, using: implementation) == whole)
      for split in 0...raw.count {
        let head = CRC32C.checksum(
          UnsafeRawBufferPointer(rebasing: raw[..<split]), seed: 0, using: implementation)
        let tail = CRC32C.checksum(
          UnsafeRawBufferPointer(rebasing: raw[split...]), seed: head, using: implementation)
        #expect(tail == whole, "split at \(split)")
      }
    }
  }
}
