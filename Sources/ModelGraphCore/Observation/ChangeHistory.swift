/// The most recent committed changes of a store, kept in memory for the history API.
///
/// Saves append their ``CommittedChange`` inside the publishing step, so the history is in
/// commit order. It keeps at most ``Retention/transactions`` changes holding at most
/// ``Retention/changes`` object changes in all; older ones are dropped first, and
/// `deleteHistory(before:)` drops them on request.
public final class ChangeHistory: Sendable {
  /// How much history is kept.
  public struct Retention: Sendable, Hashable {
    /// The most saves kept; 0 keeps none and stops recording.
    public var transactions: Int
    /// The most object changes (inserts, updates and deletes) kept over all saves.
    public var changes: Int

    /// A retention of `transactions` saves and `changes` object changes.
    public init(transactions: Int = 1_000, changes: Int = 100_000) {
      self.transactions = transactions
      self.changes = changes
    }
  }

  private struct State {
    var retention = Retention()
    var entries: [CommittedChange] = []
    var first = 0
    var changeCount = 0
    /// The newest version dropped (by retention or deletion), 0 if none.
    var droppedThrough: UInt64 = 0
  }

  private let state = Locked(State())

  /// Whether saves are recorded (the retention keeps at least one save).
  var isRecording: Bool { state.withLock { $0.retention.transactions > 0 } }

  /// How much history is kept; lowering it drops the oldest changes at once.
  public var retention: Retention {
    get { state.withLock { $0.retention } }
    set {
      state.withLock { state in
        state.retention = newValue
        Self.trim(&state)
      }
    }
  }

  /// Appends `change`, dropping the oldest changes beyond the retention.
  func record(_ change: CommittedChange) {
    state.withLock { state in
      guard state.retention.transactions > 0 else {
        state.droppedThrough = max(state.droppedThrough, change.version)
        return
      }
      state.entries.append(change)
      state.changeCount += Self.size(of: change)
      Self.trim(&state)
    }
  }

  /// Notes that the version `version` was shown without a change (history was off when it
  /// was committed): its change is missing, as recovery also says.
  func skip(_ version: UInt64) {
    state.withLock { state in state.droppedThrough = max(state.droppedThrough, version) }
  }

  /// The kept changes with a version greater than `version`, oldest first.
  public func changes(after version: UInt64) -> [CommittedChange] {
    state.withLock { state in
      state.entries[state.first...].filter { $0.version > version }
    }
  }

  /// The kept changes with versions `version + 1` through `last`, oldest first, or `nil` when
  /// any of them is not kept (dropped, not recorded, or a version that had no change).
  ///
  /// - Complexity: O(log kept + returned).
  public func changes(after version: UInt64, through last: UInt64) -> [CommittedChange]? {
    guard last > version else { return [] }
    return state.withLock { state in
      var low = state.first
      var high = state.entries.count
      while low < high {
        let middle = (low + high) / 2
        if state.entries[middle].version <= version { low = middle + 1 } else { high = middle }
      }
      let wanted = Int(clamping: last - version)
      guard state.entries.count - low >= wanted,
        state.entries[low].version == version + 1,
        state.entries[low + wanted - 1].version == last
      else { return nil }
      return Array(state.entries[low..<low + wanted])
    }
  }

  /// The newest version whose change is no longer kept (0 when nothing was dropped): a reader
  /// asking for changes after an older version has missed some.
  public var droppedThrough: UInt64 { state.withLock { $0.droppedThrough } }

  /// Drops every kept change with a version up to and including `version`.
  public func deleteHistory(through version: UInt64) {
    state.withLock { state in
      while state.first < state.entries.count, state.entries[state.first].version <= version {
        Self.dropFirst(&state)
      }
      state.droppedThrough = max(state.droppedThrough, version)
      Self.compact(&state)
    }
  }

  /// The kept changes and what was dropped, as a snapshot writes them.
  public func kept() -> KeptHistory {
    state.withLock { state in
      KeptHistory(
        changes: Array(state.entries[state.first...]), droppedThrough: state.droppedThrough)
    }
  }

  /// Replaces the kept changes with `kept` (a store's files' history), dropping the oldest
  /// beyond the retention.
  public func restore(_ kept: KeptHistory) {
    state.withLock { state in
      state.entries = state.retention.transactions > 0 ? kept.changes : []
      state.first = 0
      state.changeCount = state.entries.reduce(0) { $0 + Self.size(of: $1) }
      state.droppedThrough = kept.droppedThrough
      if state.entries.isEmpty, let last = kept.changes.last {
        state.droppedThrough = max(state.droppedThrough, last.version)
      }
      Self.trim(&state)
    }
  }

  /// What ``droppedThrough`` will be once `changes` are recorded, in order (the changes of the
  /// versions committed and not shown yet, then a new one): a journal record carries it,
  /// so recovery drops what the retention dropped.
  func droppedThrough(afterRecording changes: [CommittedChange]) -> UInt64 {
    state.withLock { state in
      guard let last = changes.last else { return state.droppedThrough }
      guard state.retention.transactions > 0 else { return last.version }
      var first = state.first
      var count = state.changeCount + changes.reduce(0) { $0 + Self.size(of: $1) }
      var dropped = state.droppedThrough
      let total = state.entries.count + changes.count
      while first < total,
        total - first > state.retention.transactions
          || count > state.retention.changes
      {
        let entry =
          first < state.entries.count
          ? state.entries[first] : changes[first - state.entries.count]
        count -= Self.size(of: entry)
        dropped = max(dropped, entry.version)
        first += 1
      }
      return dropped
    }
  }

  private static func size(of change: CommittedChange) -> Int {
    change.inserted.count + change.updated.count + change.deleted.count
  }

  private static func trim(_ state: inout State) {
    while state.first < state.entries.count,
      state.entries.count - state.first > state.retention.transactions
        || state.changeCount > state.retention.changes
    {
      dropFirst(&state)
    }
    compact(&state)
  }

  private static func dropFirst(_ state: inout State) {
    let change = state.entries[state.first]
    state.changeCount -= size(of: change)
    state.droppedThrough = max(state.droppedThrough, change.version)
    state.first += 1
  }

  /// Removes dropped entries from the array once they are half of it (amortized O(1)), so a
  /// dropped save's identifiers are released.
  private static func compact(_ state: inout State) {
    guard state.first > 0, state.first * 2 >= state.entries.count else { return }
    state.entries.removeFirst(state.first)
    state.first = 0
  }
}
