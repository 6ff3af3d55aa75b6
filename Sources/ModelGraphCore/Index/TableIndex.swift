/// A range of attribute values, as the planner finds it in a condition.
struct IndexValueRange: CustomStringConvertible {
  /// The lower bound and whether it is included.
  var lower: (value: ModelValue, isInclusive: Bool)?
  /// The upper bound and whether it is included.
  var upper: (value: ModelValue, isInclusive: Bool)?

  /// `[lo, hi)`, `(lo, ∞)` and so on.
  var description: String {
    let low = lower.map { "\($0.isInclusive ? "[" : "(")\($0.value)" } ?? "(-∞"
    let high = upper.map { "\($0.value)\($0.isInclusive ? "]" : ")")" } ?? "∞)"
    return "\(low), \(high)"
  }

  /// The typed range; `nil` when a bound does not convert to `Key`. Any bound excludes `nil`
  /// and NaN, and a NaN bound leaves no key, as no comparison with NaN holds; but for a key
  /// whose NaN meets inclusive bounds (`Date`: Swift's `>=` and `<=` hold for a NaN interval
  /// on either side), an inclusive NaN bound is no bound, and a range whose bounds are all
  /// inclusive takes the NaN keys too.
  func keyRange<Key: IndexKey>(_: Key.Type) -> KeyRange<Key>? {
    var range = KeyRange<Key>(lower: nil, upper: nil, excludesNil: lower != nil || upper != nil)
    let meetsInclusive = Key.unmatchedMeetsInclusiveBounds
    if let lower {
      guard let key = Key(modelValue: lower.value) else { return nil }
      if key == key {
        range.lower = (key, lower.isInclusive)
      } else if !(meetsInclusive && lower.isInclusive) {
        return .empty(key)
      }
    }
    if let upper {
      guard let key = Key(modelValue: upper.value) else { return nil }
      if key == key {
        range.upper = (key, upper.isInclusive)
      } else if !(meetsInclusive && upper.isInclusive) {
        return .empty(key)
      }
    }
    range.includesUnmatched =
      meetsInclusive && range.excludesNil && lower?.isInclusive != false
      && upper?.isInclusive != false
    return range
  }
}

/// One table's index as a query sees it: the frozen index of the table's committed version,
/// with the session's pending changes laid over it.
protocol TableIndex: AnyObject {
  /// What the index is.
  var definition: IndexDefinition { get }
  /// The number of entries.
  var count: Int { get }
  /// The rows whose value is one of `values`, ascending; `nil` when a value does not convert.
  ///
  /// - Complexity: O(k log n) for k values (O(k) for a hash index), plus the rows returned.
  func rows(equalTo values: [ModelValue]) -> [Int32]?
  /// The number of rows whose value is one of `values` (pending changes make it an estimate).
  func count(equalTo values: [ModelValue]) -> Int?
  /// The exact number of rows whose value is `value`, pending changes included; `nil` when
  /// the value does not convert.
  func exactCount(equalTo value: ModelValue) -> Int?
  /// The number of rows in `range` (an estimate with pending changes); ordered indexes only.
  ///
  /// - Complexity: O(log n).
  func count(in range: IndexValueRange) -> Int?
  /// The rows in `range`, ascending by row; ordered indexes only.
  func rows(in range: IndexValueRange) -> [Int32]?
  /// A cursor over the rows in `range` in key order (ties by ascending row, in both
  /// directions); ordered indexes only.
  ///
  /// - Complexity: O(log n) to start, then O(1) amortized per row.
  func cursor(in range: IndexValueRange, ascending: Bool) -> IndexCursor?
  /// A cursor merging this index's rows in `ranges[0]` with those of `others` (indexes of the
  /// same attribute in other tables) in `ranges[1...]`, in key order, ties by table position
  /// (this one is 0) then row; ordered indexes only.
  ///
  /// - Complexity: O(t log n) to start for t tables, then O(t) per row.
  func mergeCursor(with others: [any TableIndex], ranges: [IndexValueRange], ascending: Bool)
    -> MergeCursor?
}

extension TableIndex {
  /// The exact number of rows whose value is `value`: the rows ``rows(equalTo:)`` lists.
  func exactCount(equalTo value: ModelValue) -> Int? { rows(equalTo: [value])?.count }
}

/// Rows of several tables in one index order: (table position, row) pairs.
final class MergeCursor {
  /// The next table position and row, or `nil` at the end.
  let next: () -> (table: Int, row: Int32)?
  /// Appends the next rows to a batch until it holds the count given; `false` when the cursor
  /// ran out first.
  let fill: (inout [RowReference], Int) -> Bool
  /// Starts the cursor again over the same indexes with new ranges (one per table position),
  /// as a new cursor of them would start: a cached plan's merge reuses its cursor instead of
  /// making one per run. `false` when a range does not convert to the indexes' keys; the
  /// cursor is then not to be used.
  let restart: ([IndexValueRange]) -> Bool

  init(
    next: @escaping () -> (table: Int, row: Int32)?,
    fill: @escaping (inout [RowReference], Int) -> Bool,
    restart: @escaping ([IndexValueRange]) -> Bool
  ) {
    self.next = next
    self.fill = fill
    self.restart = restart
  }
}

/// Rows of one table in an index's order, produced on demand.
final class IndexCursor {
  /// The next row, or `nil` at the end.
  let next: () -> Int32?

  init(_ next: @escaping () -> Int32?) { self.next = next }
}
