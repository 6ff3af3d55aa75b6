/// The positions of `range` in an index in key order; when descending, each run of equal keys
/// still comes in ascending row order.
final class OrderedRun<Key: IndexKey> {
  let index: OrderedIndex<Key>
  private(set) var range: Range<Int>
  /// Positions within ``range`` the walk passes over (between the NaN dates a range takes and
  /// the keys within its bounds); `nil` when there are none.
  private(set) var gap: Range<Int>?
  let ascending: Bool
  let skipped: Set<Int32>
  var position: Int
  /// Descending: the end of the current run of equal keys and its start.
  var runEnd: Int
  var runStart: Int

  /// Ascending: the range whose upper bound ends the walk at the first key past it, when
  /// ``range`` runs to the end of the index (its end was not searched for).
  private(set) var upper: KeyRange<Key>?

  /// The positions of `keys` in `index` in key order. Ascending, only the start is searched
  /// for: the walk ends at the first key past the range, so a walk that stops early never
  /// pays for the search of the end (a binary search whose probes miss the cache).
  init(_ index: OrderedIndex<Key>, keys: KeyRange<Key>, ascending: Bool, skipping: Set<Int32>) {
    self.index = index
    self.ascending = ascending
    self.skipped = skipping
    (range, gap) = index.walk(keys, ascending: ascending)
    upper = ascending && keys.upper != nil ? keys : nil
    position = ascending ? range.lowerBound : range.upperBound
    runEnd = range.upperBound
    runStart = range.upperBound
  }

  /// Starts the walk again over the positions of `keys`, as
  /// ``init(_:keys:ascending:skipping:)`` starts it (a merge reused by a cached plan).
  ///
  /// - Complexity: O(log n).
  func restart(keys: KeyRange<Key>) {
    (range, gap) = index.walk(keys, ascending: ascending)
    upper = ascending && keys.upper != nil ? keys : nil
    position = ascending ? range.lowerBound : range.upperBound
    runEnd = range.upperBound
    runStart = range.upperBound
  }

  func nextRow() -> Int32? { nextPosition().map { index.rows[$0] } }

  /// The next position of the walk that holds a row not skipped; `nil` once the walk is over.
  ///
  /// Inlined: a merge calls it for every row it returns.
  @inline(__always)
  func nextPosition() -> Int? {
    while true {
      if ascending {
        guard position < range.upperBound else { return nil }
        if let gap, position == gap.lowerBound {
          position = gap.upperBound
          continue
        }
        if let upper, OrderedIndex.isBeyond(index.keys[position], upper) {
          position = range.upperBound
          return nil
        }
        defer { position += 1 }
        if skipped.isEmpty || !skipped.contains(index.rows[position]) { return position }
        continue
      }
      if position >= runEnd {
        guard runStart > range.lowerBound else { return nil }
        runEnd = runStart
        if let gap, runEnd == gap.upperBound { runEnd = gap.lowerBound }
        runStart = max(range.lowerBound, index.boundary(index.keys[runEnd - 1], after: false))
        position = runStart
      }
      defer { position += 1 }
      if skipped.isEmpty || !skipped.contains(index.rows[position]) { return position }
    }
  }
}
