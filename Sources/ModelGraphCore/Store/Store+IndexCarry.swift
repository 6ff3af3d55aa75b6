#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
  ///
  /// Called from a query's index lookup, where any lock may be held (a query run under the
  /// store's lock, or under a persistence's lock that it takes after the store's): it takes
  /// the store's lock only when it is free, trying a few times, and otherwise carries nothing
  /// (the next reader of a later version then builds the index again, as before this step).
  /// - Complexity: O(versions carried to × indexes × rows written since `table`), under the
  ///   store's lock.
  func carryIndexes(builtFor table: Table) {
    for attempt in 0..<Self.carryAttempts {
      if attempt > 0 { sched_yield() }
      if carryIndexesIfUnlocked(builtFor: table) { return }
    }
  }

  /// The tries of ``carryIndexes(builtFor:)`` to find the store's lock free.
  private static let carryAttempts = 64

  /// ``carryIndexes(builtFor:)`` when the store's lock is free; `false` when it is not.
  private func carryIndexesIfUnlocked(builtFor table: Table) -> Bool {
    let entity = table.entity.index
    return state.withLockIfAvailable { state -> Bool in
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
      return true
    } ?? false
  }
}
