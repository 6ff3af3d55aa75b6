/// One table's entries of an ordered index: keys in sort order, with their rows.
///
/// Entries are sorted by key, then by row, so equal keys list their rows ascending. An index
/// built for a frozen table version is immutable and shared by every reader of that version.
final class OrderedIndex<Key: IndexKey>: @unchecked Sendable {
  // @unchecked Sendable: immutable after init.

  /// The keys, sorted.
  let keys: [Key]
  /// The row of each key.
  let rows: [Int32]
  /// Every ``fenceStride``-th key (positions 0, s, 2s, …), or none for an index of at most
  /// ``fenceStride`` keys: a boundary search searches these first, then the one block of keys
  /// between two of them. A large index's searches probe positions spread over its whole
  /// array, most of them missing the cache; the fences are a sixty-fourth of the keys, which
  /// stay cached between searches, and the block is a few adjacent cache lines.
  let fences: [Key]

  /// The number of keys per block between two fences (a power of two).
  static var fenceStride: Int { 64 }

  init(keys: [Key], rows: [Int32]) {
    self.keys = keys
    self.rows = rows
    fences = Self.fences(of: keys)
  }

  /// The fences of `keys` (see ``fences``).
  private static func fences(of keys: [Key]) -> [Key] {
    guard keys.count > fenceStride else { return [] }
    var fences: [Key] = []
    fences.reserveCapacity((keys.count &+ fenceStride &- 1) / fenceStride)
    var position = 0
    while position < keys.count {
      fences.append(keys[position])
      position &+= fenceStride
    }
    return fences
  }

  /// The number of entries.
  var count: Int { keys.count }

  /// Whether entry `(key, row)` sorts before `(otherKey, otherRow)`.
  @inline(__always)
  static func precedes(_ key: Key, _ row: Int32, _ otherKey: Key, _ otherRow: Int32) -> Bool {
    Key.precedes(key, otherKey) || (!Key.precedes(otherKey, key) && row < otherRow)
  }

  /// The index of the live rows of `column` in `stamps`.
  ///
  /// - Complexity: O(n log n) for n live rows.
  static func build(column: Column<Key>, stamps: Column<UInt32>) -> OrderedIndex {
    var entries: [(key: Key, row: Int32)] = []
    column.forEachLiveValue(stamps: stamps) { entries.append(($0, $1)) }
    return OrderedIndex(unsorted: entries)
  }

  /// An index holding `entries`, which are sorted.
  convenience init(sorted entries: [(key: Key, row: Int32)]) {
    self.init(keys: entries.map(\.key), rows: entries.map(\.row))
  }

  /// `entries` in index order: sorted by ``RadixEntrySort`` where the key type has radix keys
  /// and they are many, else by comparing entries.
  static func sorted(_ entries: [(key: Key, row: Int32)]) -> [(key: Key, row: Int32)] {
    guard Key.hasRadixKey, entries.count > RadixEntrySort.threshold else {
      return entries.sorted { precedes($0.key, $0.row, $1.key, $1.row) }
    }
    return RadixEntrySort.order(entries).map { entries[$0] }
  }

  /// An index holding `entries`, in any order (see ``sorted(_:)``).
  convenience init(unsorted entries: [(key: Key, row: Int32)]) {
    guard Key.hasRadixKey, entries.count > RadixEntrySort.threshold else {
      self.init(sorted: Self.sorted(entries))
      return
    }
    let order = RadixEntrySort.order(entries)
    self.init(keys: order.map { entries[$0].key }, rows: order.map { entries[$0].row })
  }

  /// This index with `delta` applied: the runs of entries between the changes are copied
  /// whole, and each change is found by a binary search, so no key is compared (nor row
  /// looked up) outside those searches.
  ///
  /// - Complexity: O(n + m log n) for n entries and m changes.
  func applying(_ delta: IndexDelta<Key>) -> OrderedIndex {
    guard !delta.isEmpty else { return self }
    var cuts: [Int] = []
    cuts.reserveCapacity(delta.removed.count)
    for (key, row) in delta.removed {
      let position = entryBoundary(key, row)
      if position < count, self.rows[position] == row, !Key.precedes(key, self.keys[position]) {
        cuts.append(position)
      } else {
        assertionFailure("an index delta removes an entry the index does not hold")
      }
    }
    cuts.sort()
    let added = Self.sorted(delta.added)
    var keys: [Key] = []
    var rows: [Int32] = []
    keys.reserveCapacity(count - cuts.count + added.count)
    rows.reserveCapacity(count - cuts.count + added.count)
    var copied = 0
    var nextCut = 0
    /// Appends this index's entries from `copied` up to `end`, less the removed ones.
    func copy(upTo end: Int) {
      while nextCut < cuts.count, cuts[nextCut] < end {
        let cut = cuts[nextCut]
        nextCut += 1
        guard cut >= copied else { continue }  // the same entry removed twice
        keys.append(contentsOf: self.keys[copied..<cut])
        rows.append(contentsOf: self.rows[copied..<cut])
        copied = cut + 1
      }
      if copied < end {
        keys.append(contentsOf: self.keys[copied..<end])
        rows.append(contentsOf: self.rows[copied..<end])
        copied = end
      }
    }
    for entry in added {
      copy(upTo: max(copied, entryBoundary(entry.key, entry.row)))
      keys.append(entry.key)
      rows.append(entry.row)
    }
    copy(upTo: count)
    return OrderedIndex(keys: keys, rows: rows)
  }

  /// The first position whose entry does not sort before `(key, row)`.
  ///
  /// - Complexity: O(log n).
  private func entryBoundary(_ key: Key, _ row: Int32) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if Self.precedes(keys[middle], rows[middle], key, row) {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return low
  }

  /// The first position whose key is not before `key` (or, when `strictly`, is after it).
  ///
  /// - Complexity: O(log n).
  func boundary(_ key: Key, after strictly: Bool) -> Int {
    strictly
      ? firstPosition { !Key.precedes(key, $0) } : firstPosition { Key.precedes($0, key) }
  }

  /// The first position whose key is not `isLeft`, when the keys are `isLeft` up to some
  /// position and not from there on: found among the ``fences`` first, then within the block
  /// of keys after the last fence that is `isLeft`.
  ///
  /// - Complexity: O(log n): about ⌈log₂ n⌉ + 2 comparisons.
  @inline(__always)
  private func firstPosition(where isLeft: (Key) -> Bool) -> Int {
    var low = 0
    var high = keys.count
    if !fences.isEmpty {
      // Fence f is the key at f × stride: the first fence not `isLeft` bounds the answer
      // above, the one before it (`isLeft`) below.
      let fence = fences.withUnsafeBufferPointer {
        Self.firstPosition(in: $0, from: 0, to: $0.count, where: isLeft)
      }
      guard fence > 0 else { return 0 }
      low = (fence &- 1) &* Self.fenceStride &+ 1
      high = Swift.min(fence &* Self.fenceStride, keys.count)
    }
    return keys.withUnsafeBufferPointer {
      Self.firstPosition(in: $0, from: low, to: high, where: isLeft)
    }
  }

  /// The first position of `low...high` whose key in `keys` is not `isLeft` (`high` when there
  /// is none before it), when the answer is known to lie in `low...high` and `high` is at most
  /// the number of keys.
  ///
  /// Each step halves the positions left with one comparison, without a bounds check, the
  /// direction of the bound chosen before the loop. (The step is written as a select, but
  /// LLVM's x86 back end turns a select that feeds the next probe's address into a branch:
  /// the search is not branchless in machine code.)
  ///
  /// - Complexity: O(log(high − low)): ⌈log₂(high − low)⌉ + 1 comparisons.
  @inline(__always)
  private static func firstPosition(
    in keys: UnsafeBufferPointer<Key>, from low: Int, to high: Int, where isLeft: (Key) -> Bool
  ) -> Int {
    var base = low
    var length = high &- low
    guard length > 0 else { return low }
    // The answer stays in base...base + length, and base + length never passes `high`.
    while length > 1 {
      let half = length &>> 1
      base = isLeft(keys[base &+ half]) ? base &+ half : base
      length &-= half
    }
    return isLeft(keys[base]) ? base &+ 1 : base
  }

  /// The first position of the keys in `range`: the start of ``positions(_:)`` without the
  /// search for its end, for a walk that stops at the first key ``isBeyond(_:_:)`` the range.
  ///
  /// - Complexity: O(log n).
  func lowerPosition(_ range: KeyRange<Key>) -> Int {
    var low = range.lower.map { boundary($0.key, after: !$0.isInclusive) } ?? 0
    if range.excludesNil, let unmatched = Key.unmatchedKey {
      low = max(low, boundary(unmatched, after: true))
    }
    return low
  }

  /// Whether `key` sorts after the keys of `range` (past its upper bound).
  @inline(__always)
  static func isBeyond(_ key: Key, _ range: KeyRange<Key>) -> Bool {
    guard let upper = range.upper else { return false }
    return upper.isInclusive ? Key.precedes(upper.key, key) : !Key.precedes(key, upper.key)
  }

  /// The positions of the keys equal to `Key.unmatchedKey` when `range` takes them besides
  /// the keys within its bounds (``KeyRange/includesUnmatched``); empty otherwise. They come
  /// before ``positions(_:)`` and ``lowerPosition(_:)``, with only keys below the range's lower
  /// bound between them.
  ///
  /// - Complexity: O(log n).
  func unmatchedPositions(_ range: KeyRange<Key>) -> Range<Int> {
    guard range.includesUnmatched, let unmatched = Key.unmatchedKey else { return 0..<0 }
    let start = boundary(unmatched, after: false)
    return start..<max(start, boundary(unmatched, after: true))
  }

  /// The positions a walk of `range` reads, from the first to past the last (ascending, to
  /// the end of the index: the walk stops at the first key past the range), and the positions
  /// among them it passes over: the keys between the NaN keys a range takes
  /// (``unmatchedPositions(_:)``) and the keys within its bounds; `nil` when there are none.
  ///
  /// - Complexity: O(log n).
  func walk(_ range: KeyRange<Key>, ascending: Bool) -> (span: Range<Int>, gap: Range<Int>?) {
    let main = ascending ? lowerPosition(range)..<count : positions(range)
    let unmatched = unmatchedPositions(range)
    guard !unmatched.isEmpty else { return (main, nil) }
    let gap = unmatched.upperBound..<max(unmatched.upperBound, main.lowerBound)
    return (
      unmatched.lowerBound..<max(unmatched.upperBound, main.upperBound),
      gap.isEmpty ? nil : gap
    )
  }

  /// The positions of the keys in `range` (less the NaN keys it may take besides, which
  /// ``unmatchedPositions(_:)`` gives).
  ///
  /// - Complexity: O(log n).
  func positions(_ range: KeyRange<Key>) -> Range<Int> {
    var low = range.lower.map { boundary($0.key, after: !$0.isInclusive) } ?? 0
    if range.excludesNil, let unmatched = Key.unmatchedKey {
      low = max(low, boundary(unmatched, after: true))
    }
    let high = range.upper.map { boundary($0.key, after: $0.isInclusive) } ?? count
    return low..<max(low, high)
  }
}

/// A range of keys: optional bounds, each inclusive or not.
struct KeyRange<Key: Equatable> {
  /// The lower bound.
  var lower: (key: Key, isInclusive: Bool)?
  /// The upper bound.
  var upper: (key: Key, isInclusive: Bool)?
  /// Whether `nil` and NaN keys are outside the range (true for any comparison with a bound).
  var excludesNil: Bool
  /// Whether the keys equal to `Key.unmatchedKey` (NaN dates) are in the range besides the
  /// keys within its bounds: a `Date` range whose bounds are all inclusive, as Swift's `>=`
  /// and `<=` hold for a NaN interval. They sort before the bounds' keys, so the range is two
  /// runs of an index: ``OrderedIndex/unmatchedPositions(_:)`` and
  /// ``OrderedIndex/positions(_:)``.
  var includesUnmatched = false

  /// Every key, `nil` included.
  static var all: KeyRange { KeyRange(lower: nil, upper: nil, excludesNil: false) }

  /// Exactly `key`; no key for a NaN, which equals nothing.
  static func equal(_ key: Key) -> KeyRange {
    if key != key { return empty(key) }
    return KeyRange(lower: (key, true), upper: (key, true), excludesNil: false)
  }

  /// No key: the range strictly between `key` and itself.
  static func empty(_ key: Key) -> KeyRange {
    KeyRange(lower: (key, false), upper: (key, false), excludesNil: true)
  }
}
