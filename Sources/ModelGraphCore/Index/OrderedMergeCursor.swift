/// The typed parts of an ordered view, seen without their key type (the merge of several
/// views checks that each is an ``OrderedViewState`` of its own key type).
class OrderedViewParts {}

/// The base, removed rows and added entries of an ordered view with key type `Key`.
final class OrderedViewState<Key: IndexKey>: OrderedViewParts {
  let base: OrderedIndex<Key>
  let removed: Set<Int32>
  let added: OrderedIndex<Key>

  init(base: OrderedIndex<Key>, removed: Set<Int32>, added: OrderedIndex<Key>) {
    self.base = base
    self.removed = removed
    self.added = added
  }

  /// A cursor merging the rows of `parts` within `ranges`; `nil` when a part has another key
  /// type or a range does not convert to `Key`.
  ///
  /// Called from code specialized for `Key` (the view's closure), it makes closures that call
  /// the specialized merge: a method of a generic class called through a protocol or a
  /// class's table would run unspecialized.
  static func mergeCursor(
    _ parts: [OrderedViewParts], ranges: [IndexValueRange], ascending: Bool
  ) -> MergeCursor? {
    var runs: [OrderedRun<Key>] = []
    var tables: [Int] = []
    runs.reserveCapacity(parts.count)
    tables.reserveCapacity(parts.count)
    let type = ObjectIdentifier(Self.self)
    for (table, part) in parts.enumerated() {
      // The exact dynamic type, checked by identity: a cheaper test than a cast.
      guard ObjectIdentifier(Swift.type(of: part)) == type, table < ranges.count,
        let range = ranges[table].keyRange(Key.self)
      else { return nil }
      let state = unsafeDowncast(part, to: OrderedViewState<Key>.self)
      runs.append(
        OrderedRun(state.base, keys: range, ascending: ascending, skipping: state.removed))
      tables.append(table)
      if state.added.count > 0 {
        runs.append(OrderedRun(state.added, keys: range, ascending: ascending, skipping: []))
        tables.append(table)
      }
    }
    let merge = OrderedMerge(runs: runs, tables: tables, ascending: ascending)
    return MergeCursor(
      next: { merge.next() }, fill: { merge.fill(&$0, upTo: $1) },
      restart: { merge.restart($0) })
  }
}

/// The rows of several ordered runs of one key type, merged by (key, table position, row).
///
/// Its state lives in plain arrays that ``fill(_:upTo:)`` takes into locals for the length of
/// a batch, so the walk costs no exclusivity check or closure call per row.
final class OrderedMerge<Key: IndexKey> {
  private let runs: [OrderedRun<Key>]
  /// Each run's table position.
  private let tables: [Int]
  /// Each run's keys and rows (its index's arrays, read without going through the run).
  private let keys: [[Key]]
  private let rows: [[Int32]]
  private let ascending: Bool
  /// Each run's next position, or -1 once it is exhausted.
  private var heads: [Int]

  init(runs: [OrderedRun<Key>], tables: [Int], ascending: Bool) {
    self.runs = runs
    self.tables = tables
    self.ascending = ascending
    keys = runs.map(\.index.keys)
    rows = runs.map(\.index.rows)
    heads = runs.map { $0.nextPosition() ?? -1 }
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
        return false
      }
      let run = runs[source]
      run.restart(keys: range)
      heads[source] = run.nextPosition() ?? -1
    }
    return true
  }

  func next() -> (table: Int, row: Int32)? {
    var heads: [Int] = []
    swap(&heads, &self.heads)
    defer { swap(&heads, &self.heads) }
    return take(&heads)
  }

  func fill(_ batch: inout [RowReference], upTo count: Int) -> Bool {
    var heads: [Int] = []
    swap(&heads, &self.heads)
    defer { swap(&heads, &self.heads) }
    while batch.count < count {
      guard let (table, row) = take(&heads) else { return false }
      batch.append(RowReference(table: table, row: Int(row)))
    }
    return true
  }

  /// The first row among the runs' heads, its run advanced; `nil` when all are exhausted.
  @inline(__always)
  private func take(_ heads: inout [Int]) -> (table: Int, row: Int32)? {
    var best = -1
    for source in heads.indices {
      let position = heads[source]
      guard position >= 0 else { continue }
      if best >= 0 {
        let current = heads[best]
        let key = keys[source][position]
        let bestKey = keys[best][current]
        let isBefore =
          if Key.precedes(key, bestKey) {
            ascending
          } else if Key.precedes(bestKey, key) {
            !ascending
          } else if tables[source] != tables[best] {
            tables[source] < tables[best]
          } else {
            rows[source][position] < rows[best][current]
          }
        if !isBefore { continue }
      }
      best = source
    }
    guard best >= 0 else { return nil }
    let row = rows[best][heads[best]]
    heads[best] = runs[best].nextPosition() ?? -1
    return (tables[best], row)
  }
}
