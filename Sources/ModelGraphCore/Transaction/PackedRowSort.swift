/// Sorts rows packed with a 32-bit value in one `UInt64` each (the row in the high half), as
/// a save's deleted rows are: by row, with a radix sort (``RadixSort``) over the bytes in
/// which the rows differ.
///
/// The standard library's sort takes about 280 instructions an element for 60,000 such
/// numbers (a merge sort through a comparison closure); the radix sort takes about 15.
enum PackedRowSort {
  /// Below this count the standard sort is as fast.
  static let radixThreshold = 256

  /// `row` (32-bit, see ``ObjectKey``) in the high half and `value` in the low half.
  @inline(__always)
  static func pack(row: Int, value: UInt32) -> UInt64 {
    UInt64(UInt32(truncatingIfNeeded: row)) &<< 32 | UInt64(value)
  }

  /// The row and the value ``pack(row:value:)`` packed.
  @inline(__always)
  static func unpack(_ packed: UInt64) -> (row: Int, value: UInt32) {
    (Int(packed &>> 32), UInt32(truncatingIfNeeded: packed))
  }

  /// Sorts `packed` ascending by row (the high 32 bits); entries with the same row keep their
  /// order.
  ///
  /// Entries already in order (a save's deletions, handed on sorted) are left after one pass.
  /// - Complexity: O(count × bytes in which the rows differ); O(count) when already sorted.
  static func sort(_ packed: inout [UInt64]) {
    guard !isSorted(packed, by: { $0 &>> 32 }) else { return }
    guard packed.count > radixThreshold else {
      packed.sort { $0 &>> 32 < $1 &>> 32 }
      return
    }
    packed.withUnsafeMutableBufferPointer { RadixSort.sort($0) { $0 &>> 32 } }
  }

  /// Sorts `rows` (row numbers, not negative) ascending, by radix above ``radixThreshold``.
  ///
  /// - Complexity: O(count × bytes in which the rows differ); O(count) when already sorted.
  static func sort<Row: FixedWidthInteger & SignedInteger>(rows: inout [Row]) {
    precondition(rows.allSatisfy { $0 >= 0 }, "a row number is not negative")
    guard !isSorted(rows, by: { UInt64(truncatingIfNeeded: $0) }) else { return }
    guard rows.count > radixThreshold else {
      rows.sort()
      return
    }
    rows.withUnsafeMutableBufferPointer { RadixSort.sort($0) { UInt64(truncatingIfNeeded: $0) } }
  }

  /// Whether `items` are ascending by `key`.
  @inline(__always)
  private static func isSorted<Element>(_ items: [Element], by key: (Element) -> UInt64) -> Bool {
    items.withUnsafeBufferPointer { items in
      guard var previous = items.first.map(key) else { return true }
      for item in items.dropFirst() {
        let current = key(item)
        if current < previous { return false }
        previous = current
      }
      return true
    }
  }
}
