/// A small map from row numbers to handles: open addressing with linear probing and a
/// multiplicative hash, so a lookup costs a multiply and a probe or two instead of the
/// standard dictionary's SipHash. Deletion shifts the following entries back (no tombstones).
struct SparseRowMap {
  private var rows: [Int] = []
  private var handles: [Unmanaged<ModelObject>?] = []
  /// The number of entries.
  private(set) var count = 0

  private var mask: Int { rows.count - 1 }

  @inline(__always)
  private func home(_ row: Int) -> Int {
    // Fibonacci hashing: the high bits of row × 2^64/φ, folded into the table.
    Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(row)) &* 0x9E37_79B9_7F4A_7C15) >> 32)
      & mask
  }

  /// The handle of `row`, if any.
  ///
  /// - Complexity: O(1) expected.
  subscript(row: Int) -> Unmanaged<ModelObject>? {
    guard count > 0 else { return nil }
    var index = home(row)
    while let handle = handles[index] {
      if rows[index] == row { return handle }
      index = (index + 1) & mask
    }
    return nil
  }

  /// Sets the handle of `row`; returns the one it replaced.
  @discardableResult
  mutating func update(_ handle: Unmanaged<ModelObject>, forRow row: Int)
    -> Unmanaged<ModelObject>?
  {
    if (count + 1) * 4 > rows.count * 3 { grow() }
    var index = home(row)
    while let existing = handles[index] {
      if rows[index] == row {
        handles[index] = handle
        return existing
      }
      index = (index + 1) & mask
    }
    rows[index] = row
    handles[index] = handle
    count += 1
    return nil
  }

  /// Removes the handle of `row`; returns it.
  @discardableResult
  mutating func remove(row: Int) -> Unmanaged<ModelObject>? {
    guard count > 0 else { return nil }
    var index = home(row)
    while let handle = handles[index] {
      if rows[index] == row {
        handles[index] = nil
        count -= 1
        shiftBack(from: index)
        return handle
      }
      index = (index + 1) & mask
    }
    return nil
  }

  /// The entries, in no particular order.
  var entries: [(row: Int, handle: Unmanaged<ModelObject>)] {
    handles.indices.compactMap { index in handles[index].map { (rows[index], $0) } }
  }

  /// Refills the gap at `hole` with the entries after it that probed past it.
  private mutating func shiftBack(from hole: Int) {
    var hole = hole
    var index = (hole + 1) & mask
    while let handle = handles[index] {
      let want = home(rows[index])
      // The entry stays unless the hole lies on its probe path (between `want` and `index`).
      let distanceToHole = (hole - want) & mask
      let distanceToSelf = (index - want) & mask
      if distanceToHole < distanceToSelf {
        rows[hole] = rows[index]
        handles[hole] = handle
        handles[index] = nil
        hole = index
      }
      index = (index + 1) & mask
    }
  }

  private mutating func grow() {
    let old = entries
    let capacity = max(16, rows.count * 2)
    rows = Array(repeating: 0, count: capacity)
    handles = Array(repeating: nil, count: capacity)
    count = 0
    for (row, handle) in old { update(handle, forRow: row) }
  }
}
