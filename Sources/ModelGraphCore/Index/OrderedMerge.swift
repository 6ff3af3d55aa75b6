/// The rows of several ordered runs of one key type, merged by (key, table position, row).
///
/// Each run is a walk over one index's positions kept in one array of plain values (the
/// index's key and row arrays, the walk's bounds and its next position, its head), so taking
/// a row compares the heads of the walks not exhausted (a linear pick: a merge has a walk or
/// two per class of a hierarchy, a few) and advances the walk taken, with no allocation, no
/// closure call, no exclusivity check and no reference count per row. A caller that asks for
/// a limit's rows reads each walk no further than the rows it returns and one head.
///
/// Walks are picked by their heads alone: the order of (key, table position, row) is total
/// (no two walks hold the same row of one table), so a walk exhausted is swapped out of the
/// active prefix of the array without changing the merge's order.
final class OrderedMerge<Key: IndexKey> {
  /// One run's walk over the positions of a range of its index, and its head.
  struct Walk {
    let index: OrderedIndex<Key>
    let keys: [Key]
    let rows: [Int32]
    /// Rows of the index to pass over (removed since the index was built).
    let skipped: SkippedRows
    /// The run's table position.
    let table: Int
    let ascending: Bool
    /// The position of the walk's next row (its head), once ``advance()`` found one.
    var head = 0
    /// The next position to read: ascending, up to ``end`` or to the first key past
    /// ``upper``; descending, up to ``end``, the end of the run of equal keys being read.
    var position = 0
    var end = 0
    /// Descending: the start of the run of equal keys being read, and the range's start (runs
    /// are read from the range's end down to it, each in ascending row order).
    var runStart = 0
    var lower = 0
    /// Ascending: the bound that ends the walk at the first key past it (only the start of
    /// the range is searched for, so a walk stopped early never pays for the search of its
    /// end, a binary search whose probes miss the cache).
    var upper: (key: Key, isInclusive: Bool)?
    /// Positions the walk passes over, from ``gapStart`` up to ``gapEnd`` (between the NaN
    /// dates a range takes and the keys within its bounds); both -1 when there are none.
    var gapStart = -1
    var gapEnd = -1

    init(_ index: OrderedIndex<Key>, table: Int, ascending: Bool, skipping: Set<Int32>) {
      self.index = index
      keys = index.keys
      rows = index.rows
      skipped = SkippedRows(skipping)
      self.table = table
      self.ascending = ascending
    }

    /// Starts the walk over the positions of `range`, its head not yet found.
    ///
    /// - Complexity: O(log n).
    mutating func start(_ range: KeyRange<Key>) {
      let (positions, gap) = index.walk(range, ascending: ascending)
      (gapStart, gapEnd) = gap.map { ($0.lowerBound, $0.upperBound) } ?? (-1, -1)
      if ascending {
        position = positions.lowerBound
        end = positions.upperBound
        upper = range.upper
      } else {
        lower = positions.lowerBound
        end = positions.upperBound
        runStart = positions.upperBound
        position = positions.upperBound
      }
    }

    /// Moves ``head`` to the walk's next row not skipped; `false` once the walk is over.
    ///
    /// - Complexity: O(1) amortized ascending; descending, O(log r) more at the start of each
    ///   run of r equal keys.
    @inline(__always)
    mutating func advance() -> Bool {
      while true {
        if position < end {
          let next = position
          if ascending && next == gapStart {
            position = gapEnd
            continue
          }
          if ascending, let upper,
            upper.isInclusive
              ? Key.precedes(upper.key, keys[next]) : !Key.precedes(keys[next], upper.key)
          {
            end = next
            return false
          }
          position = next &+ 1
          if skipped.contains(rows[next]) { continue }
          head = next
          return true
        }
        guard !ascending, runStart > lower else { return false }
        end = runStart == gapEnd ? gapStart : runStart
        runStart = runStartPosition(endingAt: end)
        position = runStart
      }
    }

    /// The first position, not before ``lower``, of the run of keys equal to the key at
    /// `end - 1`: found by doubling steps back from `end`, then a binary search of the last
    /// step, so a short run costs a comparison or two and a long one O(log r).
    private func runStartPosition(endingAt end: Int) -> Int {
      let key = keys[end &- 1]
      var inRun = end &- 1
      var before = lower &- 1
      var step = 1
      while inRun &- step >= lower {
        let probe = inRun &- step
        if Key.precedes(keys[probe], key) {
          before = probe
          break
        }
        inRun = probe
        step &<<= 1
      }
      var low = before &+ 1
      var high = inRun
      while low < high {
        let middle = low &+ (high &- low) >> 1
        if Key.precedes(keys[middle], key) { low = middle &+ 1 } else { high = middle }
      }
      return low
    }
  }

  /// Every run's walk; the first ``active`` have a head (the others are exhausted).
  @exclusivity(unchecked) private var walks: [Walk]
  @exclusivity(unchecked) private var active = 0
  private let ascending: Bool

  init(walks: [Walk], ranges: [KeyRange<Key>], ascending: Bool) {
    self.walks = walks
    self.ascending = ascending
    start(ranges)
  }

  /// Starts each walk over its range (`ranges` by walk) and finds its head.
  private func start(_ ranges: [KeyRange<Key>]) {
    var count = 0
    walks.withUnsafeMutableBufferPointer { walks in
      for walk in walks.indices {
        walks[walk].start(ranges[walk])
        Self.activate(walks, walk, &count)
      }
    }
    active = count
  }

  /// Moves walk `walk` into the active prefix of `walks` (the first `count`) when it has a
  /// head.
  @inline(__always)
  private static func activate(
    _ walks: UnsafeMutableBufferPointer<Walk>, _ walk: Int, _ count: inout Int
  ) {
    if walks[walk].advance() {
      walks.swapAt(walk, count)
      count &+= 1
    }
  }

  /// Starts the merge again over the same runs, each within its table's range in `ranges`
  /// (by table position), as a new merge of them would start; `false` when a range does not
  /// convert to `Key` (the merge then has no rows left).
  ///
  /// - Complexity: O(r log n) for r runs; no allocation.
  func restart(_ ranges: [IndexValueRange]) -> Bool {
    var count = 0
    let started = walks.withUnsafeMutableBufferPointer { walks in
      for walk in walks.indices {
        let table = walks[walk].table
        guard table < ranges.count, let range = ranges[table].keyRange(Key.self) else {
          return false
        }
        walks[walk].start(range)
        Self.activate(walks, walk, &count)
      }
      return true
    }
    active = started ? count : 0
    return started
  }

  /// The next row, or `nil` when every walk is exhausted.
  func next() -> (table: Int, row: Int32)? {
    var found: (table: Int, row: Int32)?
    var count = active
    walks.withUnsafeMutableBufferPointer { walks in
      found = Self.take(walks, &count, ascending: ascending)
    }
    active = count
    return found
  }

  /// Appends the next rows to `batch` until it holds `count`; `false` when the walks ran out
  /// first.
  ///
  /// The rows are written into a temporary buffer and appended to the batch at once, so a
  /// row costs no capacity and uniqueness check of the batch.
  func fill(_ batch: inout [RowReference], upTo count: Int) -> Bool {
    let wanted = count &- batch.count
    guard wanted > 0 else { return true }
    var remaining = active
    let ascending = self.ascending
    let filled = withUnsafeTemporaryAllocation(of: RowReference.self, capacity: wanted) { rows in
      let start = rows.baseAddress.unsafelyUnwrapped
      var filled = 0
      walks.withUnsafeMutableBufferPointer { walks in
        while filled < wanted {
          guard let (table, row) = Self.take(walks, &remaining, ascending: ascending) else {
            return
          }
          (start + filled).initialize(to: RowReference(table: table, row: Int(row)))
          filled &+= 1
        }
      }
      batch.append(contentsOf: UnsafeBufferPointer(start: start, count: filled))
      start.deinitialize(count: filled)
      return filled
    }
    active = remaining
    return filled == wanted
  }

  /// The first row among the heads of the first `active` walks, its walk advanced (or swapped
  /// past the active ones once exhausted); `nil` when no walk is active.
  @inline(__always)
  private static func take(
    _ walks: UnsafeMutableBufferPointer<Walk>, _ active: inout Int, ascending: Bool
  ) -> (table: Int, row: Int32)? {
    guard active > 0 else { return nil }
    var best = 0
    var index = 1
    while index < active {
      if isBefore(walks, index, best, ascending: ascending) { best = index }
      index &+= 1
    }
    let taken = (table: walks[best].table, row: walks[best].rows[walks[best].head])
    if !walks[best].advance() {
      active &-= 1
      walks.swapAt(best, active)
    }
    return taken
  }

  /// Whether the head of walk `first` comes before that of walk `second`: by key in the
  /// merge's direction, then by table position, then by row. (The walks are read in place:
  /// a copy of one would retain its arrays.)
  @inline(__always)
  private static func isBefore(
    _ walks: UnsafeMutableBufferPointer<Walk>, _ first: Int, _ second: Int, ascending: Bool
  ) -> Bool {
    let key = walks[first].keys[walks[first].head]
    let otherKey = walks[second].keys[walks[second].head]
    if Key.precedes(key, otherKey) { return ascending }
    if Key.precedes(otherKey, key) { return !ascending }
    if walks[first].table != walks[second].table {
      return walks[first].table < walks[second].table
    }
    return walks[first].rows[walks[first].head] < walks[second].rows[walks[second].head]
  }
}
