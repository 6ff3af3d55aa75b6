/// The history a store keeps, as files carry it between runs: the kept changes, oldest first,
/// and the newest version whose change is no longer kept.
public struct KeptHistory: Sendable {
  /// The kept changes, oldest first, with consecutive versions.
  public var changes: [CommittedChange]
  /// The newest version whose change is not kept (0 when none was ever dropped).
  public var droppedThrough: UInt64

  /// A history of `changes` after `droppedThrough`.
  public init(changes: [CommittedChange] = [], droppedThrough: UInt64 = 0) {
    self.changes = changes
    self.droppedThrough = droppedThrough
  }

  /// Adds the change of the save that published `version` (a journal record's), or, when the
  /// save recorded none (`change` is `nil`: history was off), forgets everything through it.
  /// `dropped` is the ``droppedThrough`` the save's store had after recording it.
  mutating func append(_ change: CommittedChange?, version: UInt64, dropped: UInt64) {
    guard let change else {
      changes = []
      droppedThrough = max(droppedThrough, version)
      return
    }
    if changes.isEmpty {
      droppedThrough = max(droppedThrough, version &- 1)
    } else if let last = changes.last, last.version + 1 != version {
      // A gap (records without history in between): what came before is not continuous.
      droppedThrough = max(droppedThrough, last.version)
      changes = []
    }
    changes.append(change)
    droppedThrough = max(droppedThrough, dropped)
    if let first = changes.first, first.version <= droppedThrough {
      changes.removeAll { $0.version <= droppedThrough }
    }
  }
}
