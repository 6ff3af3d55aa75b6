/// A search for a needle's bytes in a byte arena, sixteen positions at a time.
///
/// Each step loads the sixteen bytes at a position and the sixteen at the needle's last byte
/// from there, and finds with two vector comparisons the positions where the needle's first and
/// last bytes both match; only those positions are compared in full. The last few positions
/// go eight at a time in one word (an exact zero-byte test on the XOR with each byte repeated),
/// then one at a time. (The last byte, not the second: in a column of similar values, such as
/// "Trip 1234", a needle's first two bytes often match where the whole does not.) A scan of a
/// string column's arena then costs about a cycle per byte, against a loop per row that
/// restarts at each row's first byte.
enum ByteSearch {
  /// The first position `p` with `from <= p` and `p + count <= end` where `hay` holds the
  /// `count` bytes of `needle` (`count >= 1`), or `end` when there is none.
  ///
  /// - Complexity: O(end - from), plus O(count) per position where the first and last bytes match.
  @inline(__always)
  static func first(
    _ needle: UnsafePointer<UInt8>, count: Int, in hay: UnsafePointer<UInt8>, from: Int,
    end: Int
  ) -> Int {
    first(needle, count: count, in: hay, from: from, end: end, comparing: ExactBytes.self)
  }

  /// The first position `p` with `from <= p` and `p + count <= end` where `hay` holds the
  /// `count` bytes of `lowered` with ASCII letters in either case (`lowered` holds no
  /// uppercase ASCII letter; `count >= 1`), or `end` when there is none. Bytes outside ASCII
  /// match only themselves.
  ///
  /// Each step folds the bytes it loads to lowercase (``foldedLanes(_:)``, ``foldedWord(_:)``)
  /// before the search for the first and last bytes.
  /// - Complexity: O(end - from), plus O(count) per position where the first and last bytes match.
  @inline(__always)
  static func firstFolded(
    _ lowered: UnsafePointer<UInt8>, count: Int, in hay: UnsafePointer<UInt8>, from: Int,
    end: Int
  ) -> Int {
    first(lowered, count: count, in: hay, from: from, end: end, comparing: FoldedBytes.self)
  }

  /// The search of ``first(_:count:in:from:end:)``, with the bytes of `hay` mapped by
  /// `Comparison` before they are compared with `needle`'s (specialized for each, so the
  /// exact search maps nothing).
  @inline(__always)
  private static func first<Comparison: ByteComparison>(
    _ needle: UnsafePointer<UInt8>, count: Int, in hay: UnsafePointer<UInt8>, from: Int,
    end: Int, comparing _: Comparison.Type
  ) -> Int {
    let last = end &- count
    var position = from
    let first = UInt64(needle[0]) &* 0x0101_0101_0101_0101
    let lastOffset = count &- 1
    let final = UInt64(needle[lastOffset]) &* 0x0101_0101_0101_0101
    let raw = UnsafeRawPointer(hay)
    // Sixteen positions a step while the bytes last (`position ..< position + count + 15`).
    let firstLanes = SIMD16<UInt8>(repeating: needle[0])
    let finalLanes = SIMD16<UInt8>(repeating: needle[lastOffset])
    while position &+ lastOffset &+ 16 <= end {
      let head = Comparison.lanes(
        raw.loadUnaligned(fromByteOffset: position, as: SIMD16<UInt8>.self))
      let tail = Comparison.lanes(
        raw.loadUnaligned(fromByteOffset: position &+ lastOffset, as: SIMD16<UInt8>.self))
      let words = laneWords((head .== firstLanes) .& (tail .== finalLanes))
      var (half, mask) = (0, words.low)
      while mask | words.high != 0 {
        if mask == 0 { (half, mask) = (8, words.high) }
        let candidate = position &+ half &+ (mask.trailingZeroBitCount &>> 3)
        guard candidate <= last else { return end }
        if Comparison.equal(hay + candidate, needle, count) { return candidate }
        mask &= mask &- 1
        if mask == 0 && half == 8 { break }
      }
      position &+= 16
    }
    // Then eight: reads bytes `position ..< position + count + 7`.
    while position &+ lastOffset &+ 8 <= end {
      let word = Comparison.word(
        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self)))
      var mask = zeroBytes(word ^ first)
      if count > 1 {
        let tail = Comparison.word(
          UInt64(
            littleEndian: raw.loadUnaligned(
              fromByteOffset: position &+ lastOffset, as: UInt64.self)))
        mask &= zeroBytes(tail ^ final)
      }
      while mask != 0 {
        let candidate = position &+ (mask.trailingZeroBitCount &>> 3)
        guard candidate <= last else { return end }
        if Comparison.equal(hay + candidate, needle, count) { return candidate }
        mask &= mask &- 1
      }
      position &+= 8
    }
    while position <= last {
      if Comparison.byte(hay[position]) == needle[0]
        && Comparison.equal(hay + position, needle, count)
      {
        return position
      }
      position &+= 1
    }
    return end
  }

  /// `word` with each byte that is an uppercase ASCII letter made lowercase (exact: no carry
  /// between bytes; bytes outside ASCII are left as they are).
  @inline(__always)
  static func foldedWord(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    let seven = word & low
    // 0x80 in a byte from "A" (0x41) up, and in a byte past "Z" (0x5A): at most 0x7F + 0x3F.
    let fromA = (seven &+ ones &* (0x80 - 0x41)) & ~low
    let pastZ = (seven &+ ones &* (0x80 - 0x5B)) & ~low
    let upper = fromA & ~pastZ & ~word
    return word | (upper &>> 2)
  }

  /// `lanes` with each uppercase ASCII letter made lowercase (bytes outside ASCII are left as
  /// they are).
  @inline(__always)
  static func foldedLanes(_ lanes: SIMD16<UInt8>) -> SIMD16<UInt8> {
    // Adding 0x3F moves "A"..."Z" to the 26 smallest signed bytes (-128 ... -103): one signed
    // comparison finds them (there is no unsigned one in the base vector instructions).
    let shifted = unsafeBitCast(lanes &+ SIMD16(repeating: 0x3F), to: SIMD16<Int8>.self)
    let upper = unsafeBitCast(shifted .< SIMD16(repeating: -102), to: SIMD16<UInt8>.self)
    return lanes | (upper & SIMD16(repeating: 0x20))
  }

  /// The lanes of `mask` as two words, `0x80` in the byte of each lane set (lanes 0 to 7 in
  /// `low`, 8 to 15 in `high`, lowest lane in the lowest byte) and `0` elsewhere.
  @inline(__always)
  static func laneWords(_ mask: SIMDMask<SIMD16<Int8>>) -> (low: UInt64, high: UInt64) {
    // A set lane is all ones: keep its top bit.
    let words = unsafeBitCast(mask, to: SIMD2<UInt64>.self)
    let top: UInt64 = 0x8080_8080_8080_8080
    return (UInt64(littleEndian: words[0]) & top, UInt64(littleEndian: words[1]) & top)
  }

  /// `byte` lowercased when it is an uppercase ASCII letter.
  @inline(__always)
  static func foldedByte(_ byte: UInt8) -> UInt8 {
    byte &- 0x41 < 26 ? byte | 0x20 : byte
  }

  /// Whether the `count` bytes at `hay`, ASCII-lowercased, are those at `lowered`.
  @inline(__always)
  static func equalFolded(
    _ hay: UnsafePointer<UInt8>, _ lowered: UnsafePointer<UInt8>, _ count: Int
  ) -> Bool {
    var index = 0
    while index < count {
      if foldedByte(hay[index]) != lowered[index] { return false }
      index &+= 1
    }
    return true
  }

  /// `0x80` in each byte of `word` that is zero, `0` in the others (exact: no borrow between
  /// bytes).
  @inline(__always)
  static func zeroBytes(_ word: UInt64) -> UInt64 {
    let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    return ~(((word & low) &+ low) | word | low)
  }

  /// Whether the `count` bytes at `hay` are those at `needle`.
  @inline(__always)
  static func equal(
    _ hay: UnsafePointer<UInt8>, _ needle: UnsafePointer<UInt8>, _ count: Int
  ) -> Bool {
    var index = 0
    while index < count {
      if hay[index] != needle[index] { return false }
      index &+= 1
    }
    return true
  }
}
