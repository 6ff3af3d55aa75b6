extension Session {
  /// The hash index of attribute `slot` (unique, or part of a unique constraint) on each table
  /// of `scope`, as the session's working tables hold it; `nil` when the attribute's type
  /// cannot be indexed.
  ///
  /// The index of each committed table version is built once per store and carried forward
  /// from version to version (``IndexRegistry``); the session's pending changes are laid over it.
  /// - Complexity: O(rows the session wrote in the scope), after the first build.
  func uniqueIndexViews(slot: Int, scope: [Int]) -> [any TableIndex]? {
    var tables = base.tables
    for entity in scope { tables[entity] = table(entity) }
    let changes = changes
    let resolver = IndexResolver(
      store: store, tables: tables, committedTables: base.tables, hasPendingChanges: true,
      memo: indexMemo, writtenRows: { changes[$0]?.writtenRows ?? [] })
    let entity = catalog.entities[scope[0]]
    let attribute = entity.attributes[slot]
    let definition = IndexDefinition(.hash, on: attribute.name, isUnique: attribute.isUnique)
    var views: [any TableIndex] = []
    for member in scope {
      guard let view = resolver.view(definition, entity: catalog.entities[member]) else {
        return nil
      }
      views.append(view)
    }
    return views
  }

  /// The live rows of the scope holding `value` in the unique attribute the views index, as
  /// (position in the scope, row); `nil` when `value` does not convert to the index's key.
  func rows(
    holding value: ModelValue, in views: [any TableIndex]
  ) -> [(table: Int, row: Int)]? {
    var found: [(table: Int, row: Int)] = []
    for (position, view) in views.enumerated() {
      guard let rows = view.rows(equalTo: [value]) else { return nil }
      found += rows.map { (position, Int($0)) }
    }
    return found
  }

  /// The candidates whose value of the unique attribute `slot` another live row of the scope
  /// also holds; `nil` values never count. Found through the attribute's hash index.
  ///
  /// - Returns: The duplicated candidates with their value, or `nil` when the attribute cannot
  ///   be indexed.
  /// - Complexity: O(candidates + the cost of ``uniqueIndexViews(slot:scope:)``).
  func indexedDuplicates(
    slot: Int, scope: [Int], candidates: [(table: Int, row: Int)]
  ) -> [(table: Int, row: Int, value: ModelValue)]? {
    guard let views = uniqueIndexViews(slot: slot, scope: scope) else { return nil }
    var result: [(table: Int, row: Int, value: ModelValue)] = []
    for candidate in candidates {
      let value = table(scope[candidate.table]).attributeColumns[slot].value(at: candidate.row)
      guard !value.isNull else { continue }
      // Counted, not listed: a bulk insert checks every new row without allocating for each.
      var holders = 0
      for view in views {
        guard let count = view.exactCount(equalTo: value) else { return nil }
        holders += count
      }
      if holders > 1 { result.append((candidate.table, candidate.row, value)) }
    }
    return result
  }

  /// For each candidate, the first live row of the scope (outside `excluded`) holding the same
  /// non-`nil` value of the unique attribute `slot`, found through its hash index.
  ///
  /// - Returns: Per candidate (same order), the matching (position in the scope, row), or
  ///   `nil`; `nil` as a whole when the attribute cannot be indexed.
  func indexedMatches(
    slot: Int, scope: [Int], candidates: [(table: Int, row: Int)], excluded: Set<ObjectKey>
  ) -> [(table: Int, row: Int)?]? {
    guard let views = uniqueIndexViews(slot: slot, scope: scope) else { return nil }
    var result: [(table: Int, row: Int)?] = []
    for candidate in candidates {
      let value = table(scope[candidate.table]).attributeColumns[slot].value(at: candidate.row)
      guard !value.isNull else {
        result.append(nil)
        continue
      }
      guard let holders = rows(holding: value, in: views) else { return nil }
      result.append(
        holders.first { holder in
          !excluded.contains(key(scope[holder.table], holder.row))
        })
    }
    return result
  }
}
