/// The rows of several ordered runs of one key type, merged by (key, table position, row).
///
/// The next entry of each run not yet exhausted (its head) is kept, with its key and row, in
/// one array in run order, so picking the next row compares keys held side by side (a linear
/// pick: a merge has a run or two per class of a hierarchy, a few), and only the run taken
/// reads its index again. ``fill(_:upTo:)`` takes that array into a local for the length of a
/// batch, so the walk costs no exclusivity check or closure call per row, and a caller that
/// asks for a limit's rows reads each run no further than the rows it returns and one head.
final class OrderedMerge<Key: IndexKey> {
  /// The next entry of one run.
  private struct Head {
    var key: Key
    var row: Int32
    /// The run's table position.
    var table: Int
    /// The run, by position in ``runs``.
    var run: Int
  }

  private let runs: [OrderedRun<Key>]
  /// Each run's table position.
  private let tables: [Int]
  private let ascending: Bool
  /// The heads of the runs not exhausted, in run order (a tie between equal heads goes to
  /// the earlier run, as the order of the runs is the order of their tables).
  private var heads: [Head] = []

  init(runs: [OrderedRun<Key>], tables: [Int], ascending: Bool) {
    self.runs = runs
    self.tables = tables
    self.ascending = ascending
    heads.reserveCapacity(runs.count)
    loadHeads()
  }

  /// Fills ``heads`` with each run's first entry.
  private func loadHeads() {
    heads.removeAll(keepingCapacity: true)
    for run in runs.indices {
      if let head = head(of: run) { heads.append(head) }
    }
  }

  /// The next entry of `run`, its walk advanced; `nil` when the run is exhausted.
  @inline(__always)
  private func head(of run: Int) -> Head? {
    let source = runs[run]
    guard let position = source.nextPosition() else { return nil }
    return Head(
      key: source.index.keys[position], row: source.index.rows[position], table: tables[run],
      run: run)
  }

  /// Starts the merge again over the same runs, each within its table's range in `ranges`
  /// (by table position), as a new merge of them would start; `false` when a range does not
  /// convert to `Key` (the merge is then left part restarted, and is not to be used).
  ///
  /// - Complexity: O(r log n) for r runs.
  func restart(_ ranges: [IndexValueRange]) -> Bool {
    for source in runs.indices {
      let table = tables[source]
      guard table < ranges.count, let range = ranges[table].keyRange(Key.self) else {
        heads.removeAll(keepingCapacity: true)
        return false
      }
      runs[source].restart(keys: range)
    }
    loadHeads()
    return true
  }

  func next() -> (table: Int, row: Int32)? {
    var heads: [Head] = []
    swap(&heads, &self.heads)
    defer { swap(&heads, &self.heads) }
    return take(&heads)
  }

  func fill(_ batch: inout [RowReference], upTo count: Int) -> Bool {
    var heads: [Head] = []
    swap(&heads, &self.heads)
    defer { swap(&heads, &self.heads) }
    while batch.count < count {
      guard let (table, row) = take(&heads) else { return false }
      batch.append(RowReference(table: table, row: Int(row)))
    }
    return true
  }

  /// The first row among `heads`, its run advanced (or dropped once exhausted); `nil` when
  /// every run is exhausted.
  @inline(__always)
  private func take(_ heads: inout [Head]) -> (table: Int, row: Int32)? {
    guard !heads.isEmpty else { return nil }
    var best = 0
    var index = 1
    while index < heads.count {
      if Self.isBefore(heads[index], heads[best], ascending: ascending) { best = index }
      index &+= 1
    }
    let taken = (table: heads[best].table, row: heads[best].row)
    if let next = head(of: heads[best].run) {
      heads[best] = next
    } else {
      heads.remove(at: best)
    }
    return taken
  }

  /// Whether `head` comes before `other`: by key in the merge's direction, then by table
  /// position, then by row.
  @inline(__always)
  private static func isBefore(_ head: Head, _ other: Head, ascending: Bool) -> Bool {
    if Key.precedes(head.key, other.key) { return ascending }
    if Key.precedes(other.key, head.key) { return !ascending }
    if head.table != other.table { return head.table < other.table }
    return head.row < other.row
  }
}
