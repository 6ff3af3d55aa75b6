/// A hash index of a frozen table version with pending changes laid over it.
///
/// Its operations are closures made by ``make(_:base:delta:)`` in code specialized for the key
/// type.
final class HashIndexView: TableIndex {
  let definition: IndexDefinition
  let count: Int
  private let rowsEqual: ([ModelValue]) -> [Int32]?
  private let countEqual: ([ModelValue]) -> Int?
  private let countOne: (ModelValue) -> Int?

  private init(
    definition: IndexDefinition, count: Int, rowsEqual: @escaping ([ModelValue]) -> [Int32]?,
    countEqual: @escaping ([ModelValue]) -> Int?, countOne: @escaping (ModelValue) -> Int?
  ) {
    self.definition = definition
    self.count = count
    self.rowsEqual = rowsEqual
    self.countEqual = countEqual
    self.countOne = countOne
  }

  func rows(equalTo values: [ModelValue]) -> [Int32]? { rowsEqual(values) }
  func count(equalTo values: [ModelValue]) -> Int? { countEqual(values) }
  func exactCount(equalTo value: ModelValue) -> Int? { countOne(value) }
  func count(in range: IndexValueRange) -> Int? { nil }
  func rows(in range: IndexValueRange) -> [Int32]? { nil }
  func cursor(in range: IndexValueRange, ascending: Bool) -> IndexCursor? { nil }
  func mergeCursor(with others: [any TableIndex], ranges: [IndexValueRange], ascending: Bool)
    -> MergeCursor?
  { nil }

  /// The view of `base` with `overlay` laid over it.
  ///
  /// - Complexity: O(1) to make when the overlay is at most ``HashOverlay/foldBound`` rows,
  ///   else O(e) for e rows it names; a lookup costs O(rows of the key × log e), plus O(e)
  ///   through a small overlay.
  @inline(__always)
  static func make<Key: ColumnValue>(
    _ definition: IndexDefinition, base: HashIndex<Key>, overlay: HashOverlay<Key>
  ) -> HashIndexView {
    // Constants, so that the closures below read them without a dynamic exclusivity check.
    let (buckets, leavingKeys) = folded(overlay)
    func isLeaving(_ key: Key) -> Bool {
      buckets == nil ? overlay.entries.contains { $0.base == key } : leavingKeys.contains(key)
    }
    // The number of rows(key) returns, without making the list.
    func count(_ key: Key) -> Int {
      guard !overlay.isEmpty else { return base.rowCount(key) }
      var total = 0
      if isLeaving(key) {
        base.forEachRow(key) { if overlay.current(of: $0) == nil { total += 1 } }
      } else {
        total = base.rowCount(key)
      }
      if let buckets {
        total += buckets[key]?.count ?? 0
      } else {
        for entry in overlay.entries where entry.current == key { total += 1 }
      }
      return total
    }
    func rows(_ key: Key) -> [Int32] {
      var rows = base.rows(key)
      guard !overlay.isEmpty else { return rows }
      // A key the overlay does not name keeps the base's list as it is (no copy, no sort).
      if isLeaving(key) { rows.removeAll { overlay.current(of: $0) != nil } }
      let before = rows.count
      if let buckets {
        if let added = buckets[key] { rows += added.array }
      } else {
        for entry in overlay.entries where entry.current == key { rows.append(entry.row) }
      }
      if rows.count != before && before > 0 { rows.sort() }
      return rows
    }
    return HashIndexView(
      definition: definition, count: base.count + overlay.countChange,
      rowsEqual: { values in
        var found: [Int32] = []
        for value in values {
          guard let key = Key(modelValue: value) else { return nil }
          if values.count == 1 { return rows(key) }
          found += rows(key)
        }
        return found.sorted()
      },
      countEqual: { values in
        var total = 0
        for value in values {
          guard let key = Key(modelValue: value) else { return nil }
          total += rows(key).count
        }
        return total
      },
      countOne: { value in Key(modelValue: value).map(count) })
  }

  /// A large overlay (a session's pending bulk insert) as a dictionary of the rows each key
  /// gains and the set of keys rows leave; `nil` and empty for a small one, looked up by a
  /// scan. Most keys of a unique attribute have one row, held without an array.
  private static func folded<Key: ColumnValue>(_ overlay: HashOverlay<Key>) -> (
    [Key: HashIndex<Key>.Rows]?, Set<Key>
  ) {
    guard overlay.count > HashOverlay<Key>.foldBound else { return (nil, []) }
    var found: [Key: HashIndex<Key>.Rows] = [:]
    var leavingKeys: Set<Key> = []
    found.reserveCapacity(overlay.count)
    for entry in overlay.entries {
      if let key = entry.current { found[key, default: .many([])].insert(entry.row) }
      if let key = entry.base { leavingKeys.insert(key) }
    }
    return (found, leavingKeys)
  }
}
