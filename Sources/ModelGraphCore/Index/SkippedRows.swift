/// The rows an index walk passes over (rows whose entries were removed since the index was
/// built), tested with a multiplicative hash and linear probing: a multiply, a shift and a
/// load or two per test, where `Set<Int32>.contains` hashes each row with SipHash.
///
/// Built once per merge (a cached plan's merge keeps it across runs).
struct SkippedRows {
  /// The rows, in a power-of-two table; ``vacant`` marks an empty place (no row is negative).
  private let places: [Int32]
  /// `64 - log2(places.count)`: folds a row's hash into the table.
  private let shift: UInt64
  /// Whether no row is skipped (tested first, so a walk without removals costs one branch).
  let isEmpty: Bool

  private static let vacant = Int32.min

  /// The rows of `rows`.
  ///
  /// - Complexity: O(n) for n rows.
  init(_ rows: Set<Int32>) {
    isEmpty = rows.isEmpty
    guard !rows.isEmpty else {
      (places, shift) = ([], 64)
      return
    }
    var capacity = 8
    while capacity < rows.count * 2 { capacity <<= 1 }
    shift = UInt64(64 - capacity.trailingZeroBitCount)
    var places = [Int32](repeating: Self.vacant, count: capacity)
    let mask = capacity - 1
    for row in rows {
      var index = Self.home(row, shift: shift)
      while places[index] != Self.vacant { index = (index &+ 1) & mask }
      places[index] = row
    }
    self.places = places
  }

  /// Whether `row` is skipped.
  ///
  /// - Complexity: O(1) expected.
  @inline(__always)
  func contains(_ row: Int32) -> Bool {
    guard !isEmpty, row != Self.vacant else { return false }
    let mask = places.count &- 1
    var index = Self.home(row, shift: shift)
    while true {
      let place = places[index]
      if place == row { return true }
      if place == Self.vacant { return false }
      index = (index &+ 1) & mask
    }
  }

  @inline(__always)
  private static func home(_ row: Int32, shift: UInt64) -> Int {
    // Fibonacci hashing: the high bits of row × 2^64/φ.
    Int(
      truncatingIfNeeded: (UInt64(UInt32(bitPattern: row)) &* 0x9E37_79B9_7F4A_7C15) >> shift)
  }
}
