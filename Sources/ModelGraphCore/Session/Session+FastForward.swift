extension Session {
  /// Brings what other sessions published since ``base`` into the working tables in place, when
  /// each table that they and this session both changed carries notes of its rows
  /// (``TableChangeNote``) back to the table of ``base``, and none of those rows is one this
  /// session changed. The session then holds `latest` with its own changes on top, as a replay
  /// would make it, at the cost of the rows the other saves wrote instead of a copy of every
  /// table this session changed. A table only the other saves changed is taken whole.
  ///
  /// The caller has found no conflict with `latest` (so no reference of this session points at
  /// an object deleted since).
  /// - Returns: `false` when the changes since ``base`` to a table this session changed are not
  ///   known row by row (a large save, more saves in between than the notes reach, a newer
  ///   catalog), touch a row this session changed, or deleted an object this session's changed
  ///   objects point at; nothing changed then, and the caller replays instead.
  /// - Complexity: O(rows written elsewhere × columns + rows changed here).
  func fastForward(onto latest: StoreVersion) -> Bool {
    guard allowsFastForward, latest.tables.count == base.tables.count else { return false }
    var absorbed: [(entity: Int, rows: [Int32])] = []
    for entity in latest.tables.indices {
      let old = base.tables[entity]
      let new = latest.tables[entity]
      if old === new { continue }
      // A table this session did not change is reset to its newer version below, as a replay
      // resets it: only the tables it changed need the other saves' rows.
      guard let change = changes[entity], !change.isEmpty, entity < working.count,
        working[entity] != nil
      else { continue }
      guard let rows = new.changeNote?.rows(since: old.serial) else { return false }
      let written = change.writtenRows
      if Self.sharesAny(written, rows) { return false }
      absorbed.append((entity, rows))
    }
    // A replay drops this session's references to objects deleted since (a relationship
    // without an inverse, or one the deletion did not write back); leave those to it.
    for (entity, change) in changes where !change.isEmpty && entity < working.count {
      guard let mine = working[entity], !mine.entity.relationships.isEmpty else { continue }
      for row in change.writtenRows.lazy.map(Int.init) where mine.isAlive(row) {
        let dangling = mine.entity.relationships.indices.contains { slot in
          mine.relatedKeys(row: row, slot: slot).contains { base.isDeletedSince($0, in: latest) }
        }
        if dangling { return false }
      }
    }
    for (entity, rows) in absorbed {
      working[entity]!.absorb(rows: rows, from: latest.tables[entity], over: base.tables[entity])
    }
    base = latest
    extendWorkingTables()
    resetWorkingTables(to: { self.base.tables[$0] }, keepingChanged: true)
    absorbedForeignChanges = true
    fastForwardCount += 1
    return true
  }

  /// Whether two ascending lists without repeats have an element in common.
  static func sharesAny(_ first: [Int32], _ second: [Int32]) -> Bool {
    var (i, j) = (0, 0)
    while i < first.count && j < second.count {
      if first[i] == second[j] { return true }
      if first[i] < second[j] { i += 1 } else { j += 1 }
    }
    return false
  }
}
