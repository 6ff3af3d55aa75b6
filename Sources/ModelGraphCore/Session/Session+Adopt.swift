extension Session {
  /// Takes over the move `trial`, a ``trialCopy()`` of this session, made since it was
  /// copied: this session then stands on the copy's base version with the copy's unsaved
  /// changes, as the same ``rebase(onto:resolving:)`` would have left it, without replaying
  /// the changes a second time. Its working tables stay the same objects (handles bound to
  /// them read the moved rows), sharing the copy's chunks.
  ///
  /// Only a move that told no observer anything can be taken over: when the copy's rebase
  /// deleted an object or wrote a relationship of one (a cascade, a repaired inverse), this
  /// returns `false` and changes nothing, and the caller rebases this session itself, so that
  /// its ``observer`` hears of each edit as it happens.
  /// - Precondition: `trial` is a trial copy of this session, and this session has not changed
  ///   since it was made.
  /// - Returns: Whether this session took over the copy's move.
  /// - Complexity: O(columns × chunks / 256) per table with unsaved changes, and O(columns)
  ///   per other working table.
  public func adopt(_ trial: Session) -> Bool {
    precondition(trial.trialOrigin === self, "only a trial copy of this session can be adopted")
    guard trial.graphEditsTold == 0 else { return false }
    guard trial.base.number > base.number else { return true }
    store.releaseUncommitted(trial.droppedTrialRows)
    trial.droppedTrialRows = []
    base = trial.base
    changes = trial.changes
    unsetAttributes = trial.unsetAttributes
    denyChecks = trial.denyChecks
    extendWorkingTables()
    // A table with changes takes the copy's rows; one without holds the committed rows, as a
    // rebase resets it.
    resetWorkingTables { entity in
      if let change = self.changes[entity], !change.isEmpty, entity < trial.working.count,
        let moved = trial.working[entity]
      {
        return moved
      }
      return self.base.tables[entity]
    }
    if trial.absorbedForeignChanges { absorbedForeignChanges = true }
    fastForwardCount += trial.fastForwardCount
    return true
  }
}
