extension Table {
  /// The values of attribute `slots` at `row`, in order, or `nil` when any is `nil`: the key a
  /// unique constraint compares.
  public func compoundValue(slots: [Int], row: Int) -> [ModelValue]? {
    var result: [ModelValue] = []
    result.reserveCapacity(slots.count)
    for slot in slots {
      let value = attributeColumns[slot].value(at: row)
      if value.isNull { return nil }
      result.append(value)
    }
    return result
  }

  /// The candidates whose values in `slots`, together, also occur in another live row of
  /// `tables`; a `nil` in any slot never counts as a duplicate.
  ///
  /// - Complexity: O(rows of `tables` × slots).
  public static func compoundDuplicates(
    slots: [Int], in tables: [Table], candidates: [(table: Int, row: Int)]
  ) -> [(table: Int, row: Int, value: String)] {
    func values(_ table: Table, _ row: Int) -> [ModelValue]? {
      table.compoundValue(slots: slots, row: row)
    }
    var wanted: [[ModelValue]: Int] = [:]
    var firstValues = Set<ModelValue>()
    for candidate in candidates {
      guard let tuple = values(tables[candidate.table], candidate.row) else { continue }
      wanted[tuple] = 0
      firstValues.insert(tuple[0])
    }
    guard !wanted.isEmpty else { return [] }
    for table in tables {
      let first = table.attributeColumns[slots[0]]
      table.forEachLiveRow { row in
        guard firstValues.contains(first.value(at: row)),
          let tuple = values(table, row), let seen = wanted[tuple]
        else { return }
        wanted[tuple] = seen + 1
      }
    }
    return candidates.compactMap { candidate in
      guard let tuple = values(tables[candidate.table], candidate.row),
        let count = wanted[tuple], count > 1
      else { return nil }
      return (candidate.table, candidate.row, "(\(tuple.map { "\($0)" }.joined(separator: ", ")))")
    }
  }
}
