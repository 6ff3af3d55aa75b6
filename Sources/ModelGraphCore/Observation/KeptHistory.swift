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

}

/// Builds a ``KeptHistory`` from a snapshot's and the journal records' changes, in order;
/// dropping the oldest costs amortized O(1) per change, so replaying a long journal with a
/// small retention stays linear.
struct KeptHistoryBuilder {
  private var entries: [CommittedChange]
  private var first = 0
  private var droppedThrough: UInt64

  /// A builder starting from `history`.
  init(_ history: KeptHistory) {
    entries = history.changes
    droppedThrough = history.droppedThrough
  }

  /// The history built.
  var history: KeptHistory {
    KeptHistory(changes: Array(entries[first...]), droppedThrough: droppedThrough)
  }

  /// Adds the change of the save that published `version` (a journal record's), or, when the
  /// save recorded none (`change` is `nil`: history was off), forgets everything through it.
  /// `dropped` is the ``KeptHistory/droppedThrough`` the save's store had after recording it.
  mutating func append(_ change: CommittedChange?, version: UInt64, dropped: UInt64) {
    guard let change else {
      entries = []
      first = 0
      droppedThrough = max(droppedThrough, version)
      return
    }
    if first == entries.count {
      droppedThrough = max(droppedThrough, version &- 1)
    } else if let last = entries.last, last.version + 1 != version {
      // A gap (records without history in between): what came before is not continuous.
      droppedThrough = max(droppedThrough, last.version)
      entries = []
      first = 0
    }
    entries.append(change)
    droppedThrough = max(droppedThrough, dropped)
    while first < entries.count, entries[first].version <= droppedThrough { first += 1 }
    if first > 0, first * 2 >= entries.count {
      entries.removeFirst(first)
      first = 0
    }
  }
}
