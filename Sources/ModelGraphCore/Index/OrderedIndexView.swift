/// An ordered index of a frozen table version with pending changes laid over it.
///
/// Its operations are closures made by ``make(_:base:delta:)`` in code specialized for the key
/// type, so a query that reaches the view through ``TableIndex`` runs specialized searches.
final class OrderedIndexView: TableIndex {
  let definition: IndexDefinition
  let count: Int
  private let rowsEqual: ([ModelValue]) -> [Int32]?
  private let countEqual: ([ModelValue]) -> Int?
  private let countRange: (IndexValueRange) -> Int?
  private let rowsRange: (IndexValueRange) -> [Int32]?
  private let cursorRange: (IndexValueRange, Bool) -> IndexCursor?
  /// The typed base, removed rows and added entries, for a merge with other views.
  fileprivate let state: Any
  /// The indexed attribute, whose storage type selects the specialized merge.
  private let attribute: AttributeDescription

  private init(
    definition: IndexDefinition, count: Int, rowsEqual: @escaping ([ModelValue]) -> [Int32]?,
    countEqual: @escaping ([ModelValue]) -> Int?, countRange: @escaping (IndexValueRange) -> Int?,
    rowsRange: @escaping (IndexValueRange) -> [Int32]?,
    cursorRange: @escaping (IndexValueRange, Bool) -> IndexCursor?, state: Any,
    attribute: AttributeDescription
  ) {
    self.definition = definition
    self.count = count
    self.rowsEqual = rowsEqual
    self.countEqual = countEqual
    self.countRange = countRange
    self.rowsRange = rowsRange
    self.cursorRange = cursorRange
    self.state = state
    self.attribute = attribute
  }

  func rows(equalTo values: [ModelValue]) -> [Int32]? { rowsEqual(values) }
  func count(equalTo values: [ModelValue]) -> Int? { countEqual(values) }
  func count(in range: IndexValueRange) -> Int? { countRange(range) }
  func rows(in range: IndexValueRange) -> [Int32]? { rowsRange(range) }
  func cursor(in range: IndexValueRange, ascending: Bool) -> IndexCursor? {
    cursorRange(range, ascending)
  }

  func mergeCursor(with others: [any TableIndex], ranges: [IndexValueRange], ascending: Bool)
    -> MergeCursor?
  {
    var views = [self]
    for other in others {
      guard let view = other as? OrderedIndexView else { return nil }
      views.append(view)
    }
    return
      (try? attribute.visitIndexKey(MergeMaker(views: views, ranges: ranges, ascending: ascending)))
      ?? nil
  }

  /// The view of `base` with `delta` laid over it.
  @inline(__always)
  static func make<Key: IndexKey>(
    _ definition: IndexDefinition, attribute: AttributeDescription, base: OrderedIndex<Key>,
    delta: IndexDelta<Key>
  ) -> OrderedIndexView {
    let removed = Set(delta.removed.map { $0.row })
    let added = OrderedIndex(
      sorted: delta.added.sorted { OrderedIndex.precedes($0.key, $0.row, $1.key, $1.row) })
    func collect(_ range: KeyRange<Key>) -> [Int32] {
      var rows = Array(base.rows[base.positions(range)])
      if !removed.isEmpty { rows.removeAll(where: removed.contains) }
      if added.count > 0 { rows += added.rows[added.positions(range)] }
      rows.sort()
      return rows
    }
    return OrderedIndexView(
      definition: definition, count: base.count - removed.count + added.count,
      rowsEqual: { values in
        var rows: [Int32] = []
        for value in values {
          guard let key = Key(modelValue: value) else { return nil }
          rows += collect(.equal(key))
        }
        return values.count > 1 ? rows.sorted() : rows
      },
      countEqual: { values in
        var total = 0
        for value in values {
          guard let key = Key(modelValue: value) else { return nil }
          total += base.positions(.equal(key)).count + added.positions(.equal(key)).count
        }
        return total
      },
      countRange: { range in
        guard let range = range.keyRange(Key.self) else { return nil }
        return base.positions(range).count + added.positions(range).count
      },
      rowsRange: { range in range.keyRange(Key.self).map(collect) },
      cursorRange: { range, ascending in
        guard let range = range.keyRange(Key.self) else { return nil }
        return cursor(base, added, removed, range, ascending)
      },
      state: OrderedViewState(base: base, removed: removed, added: added), attribute: attribute)
  }

  /// The rows of several views of one key type, merged by (key, table position, row).
  fileprivate static func mergeCursor<Key: IndexKey>(
    _: Key.Type, _ views: [OrderedIndexView], _ ranges: [IndexValueRange], _ ascending: Bool
  ) -> MergeCursor? {
    var sources: [(run: OrderedRun<Key>, table: Int)] = []
    for (table, view) in views.enumerated() {
      guard let state = view.state as? OrderedViewState<Key>, table < ranges.count,
        let range = ranges[table].keyRange(Key.self)
      else { return nil }
      sources.append(
        (
          OrderedRun(state.base, keys: range, ascending: ascending, skipping: state.removed),
          table
        ))
      if state.added.count > 0 {
        sources.append(
          (OrderedRun(state.added, keys: range, ascending: ascending, skipping: []), table))
      }
    }
    var heads = sources.map { $0.run.nextPosition() }
    return MergeCursor {
      var best = -1
      for index in heads.indices {
        guard let position = heads[index] else { continue }
        if best >= 0, let current = heads[best] {
          let a = sources[index].run.index
          let b = sources[best].run.index
          let (keyA, keyB) = (a.keys[position], b.keys[current])
          let isBefore =
            if Key.precedes(keyA, keyB) {
              ascending
            } else if Key.precedes(keyB, keyA) {
              !ascending
            } else if sources[index].table != sources[best].table {
              sources[index].table < sources[best].table
            } else {
              a.rows[position] < b.rows[current]
            }
          if !isBefore { continue }
        }
        best = index
      }
      guard best >= 0, let position = heads[best] else { return nil }
      heads[best] = sources[best].run.nextPosition()
      return (sources[best].table, sources[best].run.index.rows[position])
    }
  }

  /// Rows of `base` (less `removed`) and of `added` within `range`, merged in key order.
  @inline(__always)
  private static func cursor<Key: IndexKey>(
    _ base: OrderedIndex<Key>, _ added: OrderedIndex<Key>, _ removed: Set<Int32>,
    _ range: KeyRange<Key>, _ ascending: Bool
  ) -> IndexCursor {
    let first = OrderedRun(base, keys: range, ascending: ascending, skipping: removed)
    guard added.count > 0 else { return IndexCursor { first.nextRow() } }
    let second = OrderedRun(added, keys: range, ascending: ascending, skipping: [])
    var left = first.nextPosition()
    var right = second.nextPosition()
    return IndexCursor {
      guard let a = left else {
        defer { right = second.nextPosition() }
        return right.map { added.rows[$0] }
      }
      guard let b = right else {
        defer { left = first.nextPosition() }
        return base.rows[a]
      }
      let (keyA, keyB) = (base.keys[a], added.keys[b])
      let takeLeft =
        if Key.precedes(keyA, keyB) {
          ascending
        } else if Key.precedes(keyB, keyA) {
          !ascending
        } else {
          base.rows[a] < added.rows[b]
        }
      if takeLeft {
        left = first.nextPosition()
        return base.rows[a]
      }
      right = second.nextPosition()
      return added.rows[b]
    }
  }
}

/// Runs the merge specialized for the views' key type.
private struct MergeMaker: IndexKeyVisitor {
  let views: [OrderedIndexView]
  let ranges: [IndexValueRange]
  let ascending: Bool

  func visit<Key: IndexKey>(_: Key.Type) -> MergeCursor? {
    OrderedIndexView.mergeCursor(Key.self, views, ranges, ascending)
  }
}

/// The typed parts of an ordered view.
private struct OrderedViewState<Key: IndexKey> {
  let base: OrderedIndex<Key>
  let removed: Set<Int32>
  let added: OrderedIndex<Key>
}

/// The positions of `range` in an index in key order; when descending, each run of equal keys
/// still comes in ascending row order.
private final class OrderedRun<Key: IndexKey> {
  let index: OrderedIndex<Key>
  let range: Range<Int>
  let ascending: Bool
  let skipped: Set<Int32>
  var position: Int
  /// Descending: the end of the current run of equal keys and its start.
  var runEnd: Int
  var runStart: Int

  /// Ascending: the range whose upper bound ends the walk at the first key past it, when
  /// ``range`` runs to the end of the index (its end was not searched for).
  let upper: KeyRange<Key>?

  init(_ index: OrderedIndex<Key>, _ range: Range<Int>, ascending: Bool, skipping: Set<Int32>) {
    self.index = index
    self.range = range
    self.ascending = ascending
    self.skipped = skipping
    self.upper = nil
    position = ascending ? range.lowerBound : range.upperBound
    runEnd = range.upperBound
    runStart = range.upperBound
  }

  /// The positions of `keys` in `index` in key order. Ascending, only the start is searched
  /// for: the walk ends at the first key past the range, so a walk that stops early never
  /// pays for the search of the end (a binary search whose probes miss the cache).
  convenience init(
    _ index: OrderedIndex<Key>, keys: KeyRange<Key>, ascending: Bool, skipping: Set<Int32>
  ) {
    if ascending {
      self.init(index, index.lowerPosition(keys)..<index.count, upper: keys, skipping: skipping)
    } else {
      self.init(index, index.positions(keys), ascending: false, skipping: skipping)
    }
  }

  private init(
    _ index: OrderedIndex<Key>, _ range: Range<Int>, upper: KeyRange<Key>, skipping: Set<Int32>
  ) {
    self.index = index
    self.range = range
    self.ascending = true
    self.skipped = skipping
    self.upper = upper.upper == nil ? nil : upper
    position = range.lowerBound
    runEnd = range.upperBound
    runStart = range.upperBound
  }

  func nextRow() -> Int32? { nextPosition().map { index.rows[$0] } }

  func nextPosition() -> Int? {
    while true {
      if ascending {
        guard position < range.upperBound else { return nil }
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
        runStart = max(range.lowerBound, index.boundary(index.keys[runEnd - 1], after: false))
        position = runStart
      }
      defer { position += 1 }
      if skipped.isEmpty || !skipped.contains(index.rows[position]) { return position }
    }
  }
}
