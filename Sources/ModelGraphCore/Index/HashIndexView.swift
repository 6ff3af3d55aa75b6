/// A hash index of a frozen table version with pending changes laid over it.
///
/// Its operations are closures made by ``make(_:base:delta:)`` in code specialized for the key
/// type.
final class HashIndexView: TableIndex {
  let definition: IndexDefinition
  let count: Int
  private let rowsEqual: ([ModelValue]) -> [Int32]?
  private let countEqual: ([ModelValue]) -> Int?

  private init(
    definition: IndexDefinition, count: Int, rowsEqual: @escaping ([ModelValue]) -> [Int32]?,
    countEqual: @escaping ([ModelValue]) -> Int?
  ) {
    self.definition = definition
    self.count = count
    self.rowsEqual = rowsEqual
    self.countEqual = countEqual
  }

  func rows(equalTo values: [ModelValue]) -> [Int32]? { rowsEqual(values) }
  func count(equalTo values: [ModelValue]) -> Int? { countEqual(values) }
  func count(in range: IndexValueRange) -> Int? { nil }
  func rows(in range: IndexValueRange) -> [Int32]? { nil }
  func cursor(in range: IndexValueRange, ascending: Bool) -> IndexCursor? { nil }
  func mergeCursor(with others: [any TableIndex], ranges: [IndexValueRange], ascending: Bool)
    -> MergeCursor?
  { nil }

  /// The view of `base` with `delta` laid over it.
  @inline(__always)
  static func make<Key: ColumnValue>(
    _ definition: IndexDefinition, base: HashIndex<Key>, delta: IndexDelta<Key>
  ) -> HashIndexView {
    let removed = Set(delta.removed.map(\.row))
    var buckets: [Key: [Int32]] = [:]
    for (key, row) in delta.added { buckets[key, default: []].append(row) }
    let added = buckets.mapValues { $0.sorted() }
    return HashIndexView(
      definition: definition, count: base.count - removed.count + delta.added.count,
      rowsEqual: { values in
        var rows: [Int32] = []
        for value in values {
          guard let key = Key(modelValue: value) else { return nil }
          var found = base.rows(key)
          if !removed.isEmpty { found.removeAll(where: removed.contains) }
          rows += found
          rows += added[key] ?? []
        }
        return values.count > 1 || !added.isEmpty ? rows.sorted() : rows
      },
      countEqual: { values in
        var total = 0
        for value in values {
          guard let key = Key(modelValue: value) else { return nil }
          total += base.rows(key).count + (added[key]?.count ?? 0)
        }
        return total
      })
  }
}
