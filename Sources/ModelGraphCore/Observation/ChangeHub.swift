/// The subscribers to a store's committed changes.
///
/// A save hands its change to ``deliver(_:)`` while it holds the store's lock, so every
/// subscriber receives every change in commit order. Delivery must not block: subscribers
/// buffer (an `AsyncStream` continuation) or filter and signal.
final class ChangeHub: Sendable {
  private struct Subscribers {
    var nextID: UInt64 = 0
    var handlers: [(id: UInt64, deliver: @Sendable (CommittedChange) -> Void)] = []
  }

  private let subscribers = Locked(Subscribers())

  /// Whether anyone subscribes (one uncontended lock).
  var isObserved: Bool { subscribers.withLock { !$0.handlers.isEmpty } }

  /// Adds a handler; it is called for every change published after this returns.
  ///
  /// - Returns: The subscription's identifier, for ``remove(_:)``.
  func add(_ deliver: @escaping @Sendable (CommittedChange) -> Void) -> UInt64 {
    subscribers.withLock { state in
      state.nextID += 1
      state.handlers.append((state.nextID, deliver))
      return state.nextID
    }
  }

  /// Removes a handler; it is not called for later changes.
  func remove(_ id: UInt64) {
    subscribers.withLock { $0.handlers.removeAll { $0.id == id } }
  }

  /// Hands `change` to every handler, outside the subscribers' lock (a handler may unsubscribe).
  func deliver(_ change: CommittedChange) {
    let handlers = subscribers.withLock { $0.handlers }
    for handler in handlers { handler.deliver(change) }
  }
}
