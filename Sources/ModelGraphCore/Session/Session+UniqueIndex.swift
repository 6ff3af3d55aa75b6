extension Session {
  /// The hash index of attribute `slot` (unique, or part of a unique constraint) on each table
  /// of `scope`, as the session's working tables hold it; `nil` when the attribute's type
  /// cannot be indexed.
  ///
  /// The index of each committed table version is built once per store and carried forward
  /// with each save (``IndexShelf``); the session's pending changes are laid over it,
  /// unless `committedOnly` asks for the committed versions' indexes as they are.
  /// - Complexity: O(rows the session wrote in the scope), after the first build; O(scope)
  ///   with `committedOnly`.
  func uniqueIndexViews(slot: Int, scope: [Int], committedOnly: Bool = false)
    -> [any TableIndex]?
  {
    let find = uniqueIndexFinder(slot: slot, scope: scope, committedOnly: committedOnly)
    var views: [any TableIndex] = []
    for member in scope {
      guard let view = find(member) else { return nil }
      views.append(view)
    }
    return views
  }

  /// Finds the view ``uniqueIndexViews(slot:scope:committedOnly:)`` holds for one class of
  /// `scope`, by entity.
  private func uniqueIndexFinder(slot: Int, scope: [Int], committedOnly: Bool)
    -> (_ member: Int) -> (any TableIndex)?
  {
    let resolver: IndexResolver
    if committedOnly {
      resolver = IndexResolver(
        tables: base.tables, committedTables: base.tables,
        hasPendingChanges: false, memo: indexMemo)
    } else {
      var tables = base.tables
      for entity in scope { tables[entity] = table(entity) }
      let changes = changes
      resolver = IndexResolver(
        tables: tables, committedTables: base.tables, hasPendingChanges: true,
        memo: indexMemo, writtenRows: { changes[$0]?.writtenRows ?? [] })
    }
    let entity = catalog.entities[scope[0]]
    let attribute = entity.attributes[slot]
    let definition = IndexDefinition(.hash, on: attribute.name, isUnique: attribute.isUnique)
    let entities = catalog.entities
    // An inherited attribute has the same slot in every entity of the hierarchy.
    return { resolver.view(definition, entity: entities[$0], slot: slot) }
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
  /// - Complexity: O(candidates × rows written) for a session that wrote at most
  ///   ``fewWritesBound`` rows in the scope, else O(candidates + the cost of
  ///   ``uniqueIndexViews(slot:scope:)``).
  func indexedDuplicates(
    slot: Int, scope: [Int], candidates: [(table: Int, row: Int)]
  ) -> [(table: Int, row: Int, value: ModelValue)]? {
    fewWritesDuplicates(slot: slot, scope: scope, candidates: candidates)
      ?? viewDuplicates(slot: slot, scope: scope, candidates: candidates)
  }

  /// ``indexedDuplicates(slot:scope:candidates:)`` through the views of the working tables'
  /// indexes (the committed versions' with the session's changes laid over them).
  ///
  /// - Complexity: O(candidates + the cost of ``uniqueIndexViews(slot:scope:)``).
  func viewDuplicates(
    slot: Int, scope: [Int], candidates: [(table: Int, row: Int)]
  ) -> [(table: Int, row: Int, value: ModelValue)]? {
    guard let views = uniqueIndexViews(slot: slot, scope: scope) else { return nil }
    return duplicates(slot: slot, scope: scope, candidates: candidates, views: views)
  }

  /// The candidates whose non-`nil` value of `slot` more than one live row of the scope holds:
  /// its count in `views`, corrected by the `written` rows of the scope's tables (a row that
  /// held the value in the committed table counts one less, one that holds it now one more).
  ///
  /// - Returns: `nil` when a value does not convert to the index's key.
  /// - Complexity: O(candidates × (views + rows written)).
  private func duplicates(
    slot: Int, scope: [Int], candidates: [(table: Int, row: Int)], views: [any TableIndex],
    written: [(position: Int, rows: [Int32])] = []
  ) -> [(table: Int, row: Int, value: ModelValue)]? {
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
      for (position, rows) in written {
        let committed = base.tables[scope[position]]
        let current = table(scope[position])
        for row in rows {
          let row = Int(row)
          if committed.isAlive(row) && committed.attributeColumns[slot].value(at: row) == value {
            holders -= 1
          }
          if current.isAlive(row) && current.attributeColumns[slot].value(at: row) == value {
            holders += 1
          }
        }
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

extension Session {
  /// The most rows a session may have written in a unique attribute's scope for
  /// ``fewWritesDuplicates(slot:scope:candidates:)`` to count holders row by row.
  static var fewWritesBound: Int { 64 }

  /// ``indexedDuplicates(slot:scope:candidates:)`` for a session that wrote few rows in the
  /// scope: each value's holders are its count in the committed version's index, less the rows
  /// the session wrote that held it in the committed version, plus those that hold it now.
  ///
  /// The committed version's index views are shared by every reader of that version (a fetch
  /// made them already), so a small save lays no overlay of its changes over them.
  /// - Returns: `nil` when the session wrote more than ``fewWritesBound`` rows in the scope, a
  ///   table of the scope is newer than the session's base, or the attribute cannot be indexed.
  /// - Complexity: O(candidates × (scope + rows written in the scope)).
  private func fewWritesDuplicates(
    slot: Int, scope: [Int], candidates: [(table: Int, row: Int)]
  ) -> [(table: Int, row: Int, value: ModelValue)]? {
    var written: [(position: Int, rows: [Int32])] = []
    var total = 0
    for (position, entity) in scope.enumerated() {
      guard entity < base.tables.count else { return nil }
      guard let change = changes[entity], !change.isEmpty else { continue }
      let rows = change.writtenRows
      total += rows.count
      guard total <= Self.fewWritesBound else { return nil }
      written.append((position, rows))
    }
    // The views of the tables this session's base shares with the one it last checked are
    // kept; the others are found through the index lookup.
    var find: ((Int) -> (any TableIndex)?)?
    guard
      let views = committedUniqueViews.views(
        slot: slot, scope: scope, tables: base.tables,
        find: { position in
          if find == nil {
            find = uniqueIndexFinder(slot: slot, scope: scope, committedOnly: true)
          }
          return find.unsafelyUnwrapped(scope[position])
        })
    else { return nil }
    return duplicates(
      slot: slot, scope: scope, candidates: candidates, views: views, written: written)
  }
}
