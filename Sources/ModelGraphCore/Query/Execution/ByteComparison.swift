/// How ``ByteSearch`` compares a haystack's bytes with a needle's: each loaded byte is mapped
/// first, sixteen, eight or one at a time.
protocol ByteComparison {
  /// Sixteen bytes, mapped.
  static func lanes(_ lanes: SIMD16<UInt8>) -> SIMD16<UInt8>
  /// Eight bytes, mapped.
  static func word(_ word: UInt64) -> UInt64
  /// One byte, mapped.
  static func byte(_ byte: UInt8) -> UInt8
  /// Whether the `count` bytes at `hay`, mapped, are those at `needle`.
  static func equal(_ hay: UnsafePointer<UInt8>, _ needle: UnsafePointer<UInt8>, _ count: Int)
    -> Bool
}

/// Bytes compared as they are.
enum ExactBytes: ByteComparison {
  @inline(__always) static func lanes(_ lanes: SIMD16<UInt8>) -> SIMD16<UInt8> { lanes }
  @inline(__always) static func word(_ word: UInt64) -> UInt64 { word }
  @inline(__always) static func byte(_ byte: UInt8) -> UInt8 { byte }
  @inline(__always)
  static func equal(_ hay: UnsafePointer<UInt8>, _ needle: UnsafePointer<UInt8>, _ count: Int)
    -> Bool
  {
    ByteSearch.equal(hay, needle, count)
  }
}

/// Bytes compared with ASCII letters folded to lowercase (the needle holds no uppercase ASCII
/// letter); bytes outside ASCII match only themselves.
enum FoldedBytes: ByteComparison {
  @inline(__always)
  static func lanes(_ lanes: SIMD16<UInt8>) -> SIMD16<UInt8> { ByteSearch.foldedLanes(lanes) }
  @inline(__always) static func word(_ word: UInt64) -> UInt64 { ByteSearch.foldedWord(word) }
  @inline(__always) static func byte(_ byte: UInt8) -> UInt8 { ByteSearch.foldedByte(byte) }
  @inline(__always)
  static func equal(_ hay: UnsafePointer<UInt8>, _ needle: UnsafePointer<UInt8>, _ count: Int)
    -> Bool
  {
    ByteSearch.equalFolded(hay, needle, count)
  }
}
