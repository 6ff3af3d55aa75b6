extension AnyColumn {
  /// The candidates whose value also occurs in another live row of `tables` (this column's
  /// slot in each); `nil` values never count as duplicates.
  ///
  /// - Parameters:
  ///   - slot: The attribute slot, the same in every table.
  ///   - tables: The tables of the uniqueness scope (a class and its descendants).
  ///   - candidates: The rows to check, as (index in `tables`, row).
  /// - Returns: The duplicated candidates with their value.
  /// - Complexity: O(rows of `tables` + candidates).
  public func duplicates(
    slot: Int, in tables: [Table], candidates: [(table: Int, row: Int)]
  ) -> [(table: Int, row: Int, value: ModelValue)] {
    elementType.findDuplicates(slot: slot, in: tables, candidates: candidates)
  }
}

extension ColumnValue {
  static func findDuplicates(
    slot: Int, in tables: [Table], candidates: [(table: Int, row: Int)]
  ) -> [(table: Int, row: Int, value: ModelValue)] {
    var wanted: [Self: Int] = [:]
    for candidate in candidates {
      let value = tables[candidate.table].column(slot, as: Self.self)[candidate.row]
      if value.modelValue.isNull { continue }
      wanted[value] = 0
    }
    guard !wanted.isEmpty else { return [] }
    for table in tables {
      let column = table.column(slot, as: Self.self)
      table.forEachLiveRow { row in
        let value = column[row]
        if let seen = wanted[value] { wanted[value] = seen + 1 }
      }
    }
    return candidates.compactMap { candidate in
      let value = tables[candidate.table].column(slot, as: Self.self)[candidate.row]
      guard let count = wanted[value], count > 1 else { return nil }
      return (candidate.table, candidate.row, value.modelValue)
    }
  }
}

extension AnyColumn {
  /// For each candidate, the first other live row of `tables` (outside `excluded`) holding the
  /// same non-`nil` value.
  ///
  /// - Returns: Per candidate (same order), the matching (index in `tables`, row), or `nil`.
  /// - Complexity: O(rows of `tables` + candidates).
  public func matches(
    slot: Int, in tables: [Table], candidates: [(table: Int, row: Int)],
    excluded: Set<ObjectKey>
  ) -> [(table: Int, row: Int)?] {
    elementType.findMatches(slot: slot, in: tables, candidates: candidates, excluded: excluded)
  }
}

extension ColumnValue {
  static func findMatches(
    slot: Int, in tables: [Table], candidates: [(table: Int, row: Int)],
    excluded: Set<ObjectKey>
  ) -> [(table: Int, row: Int)?] {
    var wanted: [Self: (table: Int, row: Int)?] = [:]
    for candidate in candidates {
      let value = tables[candidate.table].column(slot, as: Self.self)[candidate.row]
      if !value.modelValue.isNull { wanted[value] = .some(nil) }
    }
    guard !wanted.isEmpty else { return candidates.map { _ in nil } }
    for (index, table) in tables.enumerated() {
      let column = table.column(slot, as: Self.self)
      let entity = table.entity.index
      table.forEachLiveRow { row in
        let value = column[row]
        guard case .some(.none) = wanted[value] else { return }
        let key = ObjectKey(entity: entity, row: row, generation: table.generation(of: row))
        if !excluded.contains(key) { wanted[value] = (index, row) }
      }
    }
    return candidates.map { candidate in
      let value = tables[candidate.table].column(slot, as: Self.self)[candidate.row]
      return wanted[value] ?? nil
    }
  }
}
