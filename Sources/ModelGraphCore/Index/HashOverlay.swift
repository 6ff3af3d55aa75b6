/// The rows whose hash index entry in one table version differs from a base index's: for each,
/// the key the base holds for it and the key it holds now.
///
/// A version's hash index is a shared ``HashIndex`` with this overlay; carrying it to the next
/// version copies the overlay (a few dozen rows) instead of the partitions the save touched,
/// and the overlay is folded into a new base only once it outgrows ``foldBound`` rows.
struct HashOverlay<Key: ColumnValue> {
  /// One row the overlay names.
  struct Entry {
    var row: Int32
    /// The row's key in the base index (`nil`: the base has no entry for the row).
    var base: Key?
    /// The row's key in this version (`nil`: no entry).
    var current: Key?
  }

  /// The rows, ascending.
  private(set) var entries: [Entry] = []
  /// The entries this version has a key for, minus those the base has a key for.
  private(set) var countChange = 0

  /// An overlay naming no row.
  init() {}

  /// The number of rows named.
  var count: Int { entries.count }

  /// Whether the overlay names no row.
  var isEmpty: Bool { entries.isEmpty }

  /// The overlay past which a carried index is folded into a new base.
  static var foldBound: Int { 32 }

  /// The overlay of the version whose entries differ from this overlay's version by `step`.
  ///
  /// A row that returns to its base entry leaves the overlay.
  /// - Complexity: O(e + s log s) for e rows named and s entries in `step`.
  func applying(_ step: IndexDelta<Key>) -> HashOverlay {
    guard !step.isEmpty else { return self }
    // The step per row: the entry it had before the step and the one it has after.
    // Removals and additions sorted together by row (a removal first), then the two entries of
    // a row that is both joined into one: O(s log s), with no insertion into the middle.
    var sorted: [Entry] = step.removed.map { Entry(row: $0.row, base: $0.key, current: nil) }
    sorted.reserveCapacity(step.removed.count + step.added.count)
    for (key, row) in step.added { sorted.append(Entry(row: row, base: nil, current: key)) }
    sorted.sort { ($0.row, $0.current == nil ? 0 : 1) < ($1.row, $1.current == nil ? 0 : 1) }
    var changes: [Entry] = []
    changes.reserveCapacity(sorted.count)
    for entry in sorted {
      if let last = changes.last, last.row == entry.row {
        changes[changes.count - 1].current = entry.current
      } else {
        changes.append(entry)
      }
    }
    var result = HashOverlay()
    result.entries.reserveCapacity(entries.count + changes.count)
    var next = 0
    for change in changes {
      while next < entries.count && entries[next].row < change.row {
        result.append(entries[next])
        next += 1
      }
      // A row already named keeps its base key; a new one's entry before the step is the base's.
      var entry = change
      if next < entries.count && entries[next].row == change.row {
        entry.base = entries[next].base
        next += 1
      }
      if entry.base != entry.current { result.append(entry) }
    }
    while next < entries.count {
      result.append(entries[next])
      next += 1
    }
    return result
  }

  private mutating func append(_ entry: Entry) {
    entries.append(entry)
    if entry.base != nil { countChange -= 1 }
    if entry.current != nil { countChange += 1 }
  }

  /// The entry of `row` in this version when the overlay names it: `.some(nil)` for a row
  /// without one; `nil` when the base's entry holds.
  ///
  /// - Complexity: O(log e).
  func current(of row: Int32) -> Key?? {
    let position = entries.insertionPoint(row)
    guard position < entries.count && entries[position].row == row else { return nil }
    return .some(entries[position].current)
  }

  /// The changes from the base to this version, to fold into a new base index.
  var delta: IndexDelta<Key> {
    var delta = IndexDelta<Key>()
    for entry in entries {
      if let key = entry.base { delta.removed.append((key, entry.row)) }
      if let key = entry.current { delta.added.append((key, entry.row)) }
    }
    return delta
  }
}

extension Array {
  /// The position of the first entry whose row is not below `row` (entries ascending by row).
  fileprivate func insertionPoint<Key>(_ row: Int32) -> Int
  where Element == HashOverlay<Key>.Entry {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if self[middle].row < row { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
