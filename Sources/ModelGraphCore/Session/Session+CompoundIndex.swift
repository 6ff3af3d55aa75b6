extension Session {
  /// For each candidate, every live row of the scope holding the candidate's values in all of
  /// `slots` (the candidate itself included), ordered by position in the scope and row; `nil`
  /// for a candidate with a `nil` in any slot.
  ///
  /// Found through the hash index of each slot: the slot whose value the fewest rows hold is
  /// read, and those rows are compared on the other slots, so a save costs O(candidates ×
  /// slots + rows sharing the rarest value), not O(rows of the scope).
  /// - Returns: `nil` as a whole when a slot's type cannot be indexed.
  func compoundHolders(
    slots: [Int], scope: [Int], candidates: [(table: Int, row: Int)]
  ) -> [[(table: Int, row: Int)]?]? {
    var views: [[any TableIndex]] = []
    for slot in slots {
      guard let slotViews = uniqueIndexViews(slot: slot, scope: scope) else { return nil }
      views.append(slotViews)
    }
    let tables = scope.map { table($0) }
    var result: [[(table: Int, row: Int)]?] = []
    result.reserveCapacity(candidates.count)
    for candidate in candidates {
      guard let values = tables[candidate.table].compoundValue(slots: slots, row: candidate.row)
      else {
        result.append(nil)
        continue
      }
      var narrowest: [(table: Int, row: Int)]?
      for (position, slotViews) in views.enumerated() {
        guard let holders = rows(holding: values[position], in: slotViews) else { return nil }
        if narrowest == nil || holders.count < narrowest!.count { narrowest = holders }
      }
      let holders = (narrowest ?? []).filter { holder in
        zip(slots, values).allSatisfy { slot, value in
          tables[holder.table].attributeColumns[slot].value(at: holder.row) == value
        }
      }
      result.append(holders.sorted { ($0.table, $0.row) < ($1.table, $1.row) })
    }
    return result
  }

  /// The candidates whose values in `slots`, together, another live row of the scope also
  /// holds, with those values as text; found through the slots' hash indexes (see
  /// ``compoundHolders(slots:scope:candidates:)``), or `nil` when a slot cannot be indexed.
  func indexedCompoundDuplicates(
    slots: [Int], scope: [Int], candidates: [(table: Int, row: Int)]
  ) -> [(table: Int, row: Int, value: String)]? {
    guard let holders = compoundHolders(slots: slots, scope: scope, candidates: candidates)
    else { return nil }
    let tables = scope.map { table($0) }
    return zip(candidates, holders).compactMap { candidate, holders in
      guard let holders, holders.count > 1,
        let values = tables[candidate.table].compoundValue(slots: slots, row: candidate.row)
      else { return nil }
      return (
        candidate.table, candidate.row, "(\(values.map { "\($0)" }.joined(separator: ", ")))"
      )
    }
  }

  /// For each candidate, the first live row of the scope (by position and row, outside
  /// `excluded`) holding the same values in all of `slots`; `nil` as a whole when a slot
  /// cannot be indexed.
  func indexedCompoundMatches(
    slots: [Int], scope: [Int], candidates: [(table: Int, row: Int)], excluded: Set<ObjectKey>
  ) -> [(table: Int, row: Int)?]? {
    guard let holders = compoundHolders(slots: slots, scope: scope, candidates: candidates)
    else { return nil }
    return holders.map { holders in
      holders?.first { !excluded.contains(key(scope[$0.table], $0.row)) }
    }
  }
}
