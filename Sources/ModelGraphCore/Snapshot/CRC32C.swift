import CModelGraphCRC32C

/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78).
///
/// The checksum of every block of a snapshot file and of every journal record.
/// `CRC32C.checksum([UInt8]("123456789".utf8))` is `0xE3069283`. It runs on the processor's CRC
/// instructions where it has them (SSE4.2 on x86-64, the CRC extension on AArch64) and on
/// slicing-by-16 tables elsewhere, with the same results.
public enum CRC32C {
  /// The way checksums are computed on this processor, chosen once.
  static let implementation: Implementation = {
    switch modelgraph_crc32c_hardware_support() {
    case 2: .interleaved
    case 1: .serial
    default: .tables
    }
  }()

  /// The checksum of `bytes`, continuing from `seed` (the checksum of the bytes before them).
  ///
  /// - Complexity: O(n).
  public static func checksum(_ bytes: UnsafeRawBufferPointer, seed: UInt32 = 0) -> UInt32 {
    checksum(bytes, seed: seed, using: implementation)
  }

  /// The checksum of `bytes`.
  public static func checksum(_ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBytes { checksum($0) }
  }

  /// The checksum of `bytes` from `seed`, computed by `implementation`, which this processor
  /// must support (`implementation` or one before it in ``Implementation``'s order).
  @inline(__always)
  static func checksum(
    _ bytes: UnsafeRawBufferPointer, seed: UInt32, using implementation: Implementation
  ) -> UInt32 {
    guard let base = bytes.baseAddress else { return seed }
    switch implementation {
    case .interleaved: return ~modelgraph_crc32c_interleaved(~seed, base, bytes.count)
    case .serial: return ~modelgraph_crc32c_serial(~seed, base, bytes.count)
    case .tables: return tableChecksum(bytes, seed: seed)
    }
  }
}

extension CRC32C {
  /// A way to compute the checksum, each supported where the ones after it are.
  enum Implementation: Int, Comparable, CaseIterable, Sendable {
    /// Slicing-by-16 tables in Swift: every processor.
    case tables
    /// One stream of the CRC instruction.
    case serial
    /// Three streams of the CRC instruction on long buffers, joined by carry-less multiplies.
    case interleaved

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The implementations this processor runs.
    static var supported: [Self] { allCases.filter { $0 <= CRC32C.implementation } }
  }
}
