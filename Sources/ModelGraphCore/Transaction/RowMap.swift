/// A map from row numbers to values, for a session's change tracking: an open-addressing table
/// with linear probing and a multiplicative hash of the row's run of 8.
///
/// A write to an object looks its row up here on every write, so the lookup is one multiply
/// and usually one probe, with no per-entry allocation (Swift's `Dictionary` hashes each key
/// with SipHash). Iteration follows the table's slots, not insertion order.
struct RowMap<Value>: Sequence {
  typealias Element = (key: Int, value: Value)

  /// The row in each slot, or -1 for an empty slot.
  private var rows: [Int] = []
  private var values: [Value?] = []
  /// The number of rows held.
  private(set) var count = 0
  /// The right shift that turns the hash's 64 bits into a slot index.
  private var shift: UInt64 = 64

  /// An empty map; it allocates at its first insertion.
  init() {}

  /// Whether the map holds no row.
  var isEmpty: Bool { count == 0 }

  /// The value of `row`; setting `nil` removes the row.
  ///
  /// - Complexity: O(1) on average.
  subscript(row: Int) -> Value? {
    get {
      guard let slot = find(row) else { return nil }
      return values[slot]
    }
    set {
      if let newValue {
        values[slotForInsertion(row)] = newValue
      } else if let slot = find(row) {
        remove(at: slot)
      }
    }
  }

  /// The value of `row`, made with `defaultValue` first when the row is absent, for in-place
  /// updates.
  subscript(row: Int, default defaultValue: @autoclosure () -> Value) -> Value {
    get { self[row] ?? defaultValue() }
    _modify {
      let slot = slotForInsertion(row)
      if values[slot] == nil { values[slot] = defaultValue() }
      yield &values[slot]!
    }
  }

  /// The rows held.
  ///
  /// A closure, not `map(\.key)`: a key path into a generic type is made at run time on every
  /// call, which cost a save about 9 µs.
  var keys: [Int] { map { $0.key } }

  func makeIterator() -> Iterator { Iterator(map: self) }

  /// The rows and values, in slot order.
  struct Iterator: IteratorProtocol {
    fileprivate let map: RowMap
    fileprivate var slot = 0

    mutating func next() -> Element? {
      while slot < map.rows.count {
        defer { slot += 1 }
        if map.rows[slot] >= 0 { return (map.rows[slot], map.values[slot]!) }
      }
      return nil
    }
  }

  var underestimatedCount: Int { count }

  /// The first slot to probe for `row`. The 8 rows of a run (`row >> 3`) start at adjacent
  /// slots, so a session writing rows in order touches the table in order (8 rows are one
  /// cache line); runs are spread over the table by a multiplicative hash.
  private func home(_ row: Int) -> Int {
    Self.home(row, shift: shift, mask: rows.count - 1)
  }

  /// The first slot to probe for `row` in a table of `mask + 1` slots whose hash shift is
  /// `shift`.
  @inline(__always)
  private static func home(_ row: Int, shift: UInt64, mask: Int) -> Int {
    let run = UInt64(truncatingIfNeeded: row >> 3) &* 0x9E37_79B9_7F4A_7C15
    return (Int(truncatingIfNeeded: run >> shift) &+ (row & 7)) & mask
  }

  private func find(_ row: Int) -> Int? {
    guard count > 0 else { return nil }
    let mask = rows.count - 1
    var slot = home(row)
    while true {
      let held = rows[slot]
      if held == row { return slot }
      if held < 0 { return nil }
      slot = (slot + 1) & mask
    }
  }

  /// The slot holding `row`, claimed (with a `nil` value) when the row is absent.
  private mutating func slotForInsertion(_ row: Int) -> Int {
    precondition(row >= 0, "a row number is not negative")
    if (count + 1) * 4 > rows.count * 3 { grow() }
    let mask = rows.count - 1
    var slot = home(row)
    while true {
      let held = rows[slot]
      if held == row { return slot }
      if held < 0 {
        rows[slot] = row
        count += 1
        return slot
      }
      slot = (slot + 1) & mask
    }
  }

  /// Doubles the slots and moves every row to its place in them.
  ///
  /// The rows are moved through buffers, without the load check and the copy-on-write checks
  /// of an insertion each: a session recording 60,000 changes spent about 240 instructions a
  /// row growing the map that way.
  private mutating func grow() {
    let capacity = Swift.max(8, rows.count * 2)
    let newShift = UInt64(64 - capacity.trailingZeroBitCount)
    let mask = capacity - 1
    var newRows = [Int](repeating: -1, count: capacity)
    var newValues = [Value?](repeating: nil, count: capacity)
    rows.withUnsafeBufferPointer { oldRows in
      values.withUnsafeMutableBufferPointer { oldValues in
        newRows.withUnsafeMutableBufferPointer { newRows in
          newValues.withUnsafeMutableBufferPointer { newValues in
            for slot in oldRows.indices where oldRows[slot] >= 0 {
              let row = oldRows[slot]
              var target = Self.home(row, shift: newShift, mask: mask)
              while newRows[target] >= 0 { target = (target &+ 1) & mask }
              newRows[target] = row
              swap(&newValues[target], &oldValues[slot])
            }
          }
        }
      }
    }
    rows = newRows
    values = newValues
    shift = newShift
  }

  /// Empties `slot` and moves later rows of its probe run back, so lookups need no markers.
  private mutating func remove(at slot: Int) {
    let mask = rows.count - 1
    var hole = slot
    var next = (slot + 1) & mask
    while rows[next] >= 0 {
      let wanted = home(rows[next])
      // The row at `next` may move to the hole when its home is not in (hole, next].
      let distanceToNext = (next - wanted) & mask
      let distanceToHole = (hole - wanted) & mask
      if distanceToHole < distanceToNext {
        rows[hole] = rows[next]
        values[hole] = values[next]
        hole = next
      }
      next = (next + 1) & mask
    }
    rows[hole] = -1
    values[hole] = nil
    count -= 1
  }
}

extension RowMap where Value == UInt32 {
  /// The rows and values by ascending row: sorted as one integer each (the row in the high
  /// half, the value in the low) by ``PackedRowSort``, not as tuples through a closure, which
  /// cost a save deleting 60,000 objects about 400 instructions an object.
  func sortedByRow() -> [(key: Int, value: UInt32)] {
    var packed: [UInt64] = []
    packed.reserveCapacity(count)
    for (row, value) in self { packed.append(PackedRowSort.pack(row: row, value: value)) }
    PackedRowSort.sort(&packed)
    return packed.map {
      let (row, value) = PackedRowSort.unpack($0)
      return (row, value)
    }
  }
}
