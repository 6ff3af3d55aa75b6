/// A hash index of a frozen table version with pending changes laid over it.
///
/// Its operations are one closure made by ``make(_:base:overlay:)`` in code specialized for the
/// key type, which answers each ``Lookup``: a view costs two allocations (itself and the
/// closure's context), where a closure per operation took four. Every save that a query
/// follows makes a view per hash index it reads of each table the save wrote.
final class HashIndexView: TableIndex {
  /// What a caller asks of the index.
  enum Lookup {
    case rowsEqual([ModelValue])
    case countEqual([ModelValue])
    case exactCount(ModelValue)
  }

  /// What ``Lookup`` gets: rows for ``Lookup/rowsEqual(_:)``, a count for the others; `nil`
  /// when a value does not convert to the key type.
  enum Answer {
    case rows([Int32]?)
    case count(Int?)
  }

  let definition: IndexDefinition
  let count: Int
  private let answer: (Lookup) -> Answer

  private init(definition: IndexDefinition, count: Int, answer: @escaping (Lookup) -> Answer) {
    self.definition = definition
    self.count = count
    self.answer = answer
  }

  func rows(equalTo values: [ModelValue]) -> [Int32]? {
    guard case .rows(let rows) = answer(.rowsEqual(values)) else { return nil }
    return rows
  }

  func count(equalTo values: [ModelValue]) -> Int? {
    guard case .count(let count) = answer(.countEqual(values)) else { return nil }
    return count
  }

  func exactCount(equalTo value: ModelValue) -> Int? {
    guard case .count(let count) = answer(.exactCount(value)) else { return nil }
    return count
  }
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
        total += buckets.rowCount(key)
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
        buckets.forEachRow(key) { rows.append($0) }
      } else {
        for entry in overlay.entries where entry.current == key { rows.append(entry.row) }
      }
      if rows.count != before && before > 0 { rows.sort() }
      return rows
    }
    func rows(equalTo values: [ModelValue]) -> [Int32]? {
      var found: [Int32] = []
      for value in values {
        guard let key = Key(modelValue: value) else { return nil }
        if values.count == 1 { return rows(key) }
        found += rows(key)
      }
      return found.sorted()
    }
    func count(equalTo values: [ModelValue]) -> Int? {
      var total = 0
      for value in values {
        guard let key = Key(modelValue: value) else { return nil }
        total += rows(key).count
      }
      return total
    }
    return HashIndexView(
      definition: definition, count: base.count + overlay.countChange,
      answer: { lookup in
        switch lookup {
        case .rowsEqual(let values): .rows(rows(equalTo: values))
        case .countEqual(let values): .count(count(equalTo: values))
        case .exactCount(let value): .count(Key(modelValue: value).map(count))
        }
      })
  }

  /// A large overlay (a session's pending bulk insert) as a hash index of the rows each key
  /// gains and the set of keys rows leave; `nil` and empty for a small one, looked up by a
  /// scan. The index is built as a base index is (``HashIndex/build(entries:)``): plain entries,
  /// sorted per partition, with no dictionary growing key by key.
  private static func folded<Key: ColumnValue>(_ overlay: HashOverlay<Key>) -> (
    HashIndex<Key>?, Set<Key>
  ) {
    guard overlay.count > HashOverlay<Key>.foldBound else { return (nil, []) }
    var added: [(key: Key, row: Int32)] = []
    var leavingKeys: Set<Key> = []
    added.reserveCapacity(overlay.count)
    for entry in overlay.entries {
      if let key = entry.current { added.append((key, entry.row)) }
      if let key = entry.base { leavingKeys.insert(key) }
    }
    return (HashIndex.build(entries: added), leavingKeys)
  }
}
