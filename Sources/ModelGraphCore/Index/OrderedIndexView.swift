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
  private let state: OrderedViewParts
  /// The merge of views of this one's key type (this one's parts first).
  private let mergeParts: ([OrderedViewParts], [IndexValueRange], Bool) -> MergeCursor?

  private init(
    definition: IndexDefinition, count: Int, rowsEqual: @escaping ([ModelValue]) -> [Int32]?,
    countEqual: @escaping ([ModelValue]) -> Int?, countRange: @escaping (IndexValueRange) -> Int?,
    rowsRange: @escaping (IndexValueRange) -> [Int32]?,
    cursorRange: @escaping (IndexValueRange, Bool) -> IndexCursor?, state: OrderedViewParts,
    mergeParts: @escaping ([OrderedViewParts], [IndexValueRange], Bool) -> MergeCursor?
  ) {
    self.definition = definition
    self.count = count
    self.rowsEqual = rowsEqual
    self.countEqual = countEqual
    self.countRange = countRange
    self.rowsRange = rowsRange
    self.cursorRange = cursorRange
    self.state = state
    self.mergeParts = mergeParts
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
    var parts: [OrderedViewParts] = []
    parts.reserveCapacity(others.count + 1)
    parts.append(state)
    for other in others {
      guard let view = other as? OrderedIndexView else { return nil }
      parts.append(view.state)
    }
    return mergeParts(parts, ranges, ascending)
  }

  /// The view of `base` with `delta` laid over it.
  @inline(__always)
  static func make<Key: IndexKey>(
    _ definition: IndexDefinition, base: OrderedIndex<Key>, delta: IndexDelta<Key>
  ) -> OrderedIndexView {
    let removed = Set(delta.removed.map { $0.row })
    let added = OrderedIndex(unsorted: delta.added)
    func collect(_ range: KeyRange<Key>) -> [Int32] {
      var rows = Array(base.rows[base.positions(range)])
      rows += base.rows[base.unmatchedPositions(range)]
      if !removed.isEmpty { rows.removeAll(where: removed.contains) }
      if added.count > 0 {
        rows += added.rows[added.positions(range)]
        rows += added.rows[added.unmatchedPositions(range)]
      }
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
          + base.unmatchedPositions(range).count + added.unmatchedPositions(range).count
      },
      rowsRange: { range in range.keyRange(Key.self).map(collect) },
      cursorRange: { range, ascending in
        guard let range = range.keyRange(Key.self) else { return nil }
        return cursor(base, added, removed, range, ascending)
      },
      state: OrderedViewState(base: base, removed: removed, added: added),
      mergeParts: { parts, ranges, ascending in
        OrderedViewState<Key>.mergeCursor(parts, ranges: ranges, ascending: ascending)
      })
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
