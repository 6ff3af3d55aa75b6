extension Store {
  /// Carries the indexes built for `table` (a frozen table of a version of this store) to the
  /// tables of its entity in the shown version and the versions committed after it.
  ///
  /// A save carries to the version it publishes only the indexes its predecessor's table held
  /// then. An index that a reader builds for the version it reads is missing from the versions
  /// committed meanwhile (saves waiting for their syncs, or shown while it built), and from
  /// every version published over them: without this, the first reader of each would build it
  /// again from every row (writers that refresh to each new version built it again and again).
  /// A `table` older than the shown version is carried forward only when the shown version's
  /// change notes reach back to it.
  /// - Complexity: O(versions carried to × indexes × rows written since `table`), under the
  ///   store's lock.
  func carryIndexes(builtFor table: Table) {
    let entity = table.entity.index
    state.withLock { state in
      var previous: Table?
      func visit(_ version: StoreVersion, isShown: Bool) {
        guard entity < version.tables.count else { return }
        let current = version.tables[entity]
        if previous == nil {
          let reaches =
            current === table
            || isShown && current.changeNote?.rows(since: table.serial) != nil
          guard reaches else { return }
          previous = table
        }
        IndexShelf.carry(from: previous!, to: current)
        previous = current
      }
      visit(state.visible, isShown: true)
      for entry in state.pending { visit(entry.version, isShown: false) }
    }
  }
}
