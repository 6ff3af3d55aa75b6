/// The subscribers to a store's committed changes.
///
/// A save hands its change to ``deliver(_:)`` while it holds the store's lock, so every
/// subscriber receives every change in commit order. Delivery must not block: subscribers
/// buffer (an `AsyncStream` continuation) or filter and signal. A subscriber that names the
/// entities it cares about is called only for changes that touch one of them, so subscribers
/// of unrelated classes cost a save nothing but a lookup per entity it touched.
final class ChangeHub: Sendable {
  /// The entities a subscriber cares about: those in `entities`, and every entity with an
  /// index of at least `from` (registered after the subscriber looked).
  struct Interest: Sendable {
    var entities: Set<Int>
    var from: Int
  }

  private typealias Handler = @Sendable (CommittedChange) -> Void

  private struct Subscriber {
    var id: UInt64
    var deliver: Handler
    var interest: Interest?
  }

  private struct Subscribers {
    var nextID: UInt64 = 0
    var all: [Subscriber] = []
    /// Subscribers without an interest: every change.
    var everything: [Handler] = []
    /// Subscribers with an interest, by entity.
    var byEntity: [Int: [(id: UInt64, deliver: Handler)]] = [:]
    /// Subscribers whose interest reaches entities registered later, with the first index.
    var openEnded: [(from: Int, id: UInt64, deliver: Handler)] = []

    mutating func reindex() {
      everything = []
      byEntity = [:]
      openEnded = []
      for subscriber in all {
        guard let interest = subscriber.interest else {
          everything.append(subscriber.deliver)
          continue
        }
        for entity in interest.entities {
          byEntity[entity, default: []].append((subscriber.id, subscriber.deliver))
        }
        if interest.from < Int.max {
          openEnded.append((interest.from, subscriber.id, subscriber.deliver))
        }
      }
    }
  }

  private let subscribers = Locked(Subscribers())

  /// Whether anyone subscribes (one uncontended lock).
  var isObserved: Bool { subscribers.withLock { !$0.all.isEmpty } }

  /// Adds a handler; it is called for every change published after this returns that
  /// touches an entity of `interest` (every change when `interest` is `nil`).
  ///
  /// - Returns: The subscription's identifier, for ``remove(_:)``.
  func add(_ interest: Interest? = nil, _ deliver: @escaping @Sendable (CommittedChange) -> Void)
    -> UInt64
  {
    subscribers.withLock { state in
      state.nextID += 1
      state.all.append(Subscriber(id: state.nextID, deliver: deliver, interest: interest))
      state.reindex()
      return state.nextID
    }
  }

  /// Removes a handler; it is not called for later changes.
  func remove(_ id: UInt64) {
    subscribers.withLock { state in
      state.all.removeAll { $0.id == id }
      state.reindex()
    }
  }

  /// Hands `change` to every interested handler, each once, outside the subscribers' lock (a
  /// handler may unsubscribe).
  func deliver(_ change: CommittedChange) {
    let (everything, byEntity, openEnded) = subscribers.withLock {
      ($0.everything, $0.byEntity, $0.openEnded)
    }
    for handler in everything { handler(change) }
    guard !byEntity.isEmpty || !openEnded.isEmpty else { return }
    let touched = change.entities.map(\.entity)
    let highest = touched.max() ?? -1
    // A subscriber interested in several touched entities is called once.
    let mayRepeat = touched.count > 1 || !openEnded.isEmpty
    var called = Set<UInt64>()
    for entity in touched {
      for (id, handler) in byEntity[entity] ?? [] where !mayRepeat || called.insert(id).inserted {
        handler(change)
      }
    }
    for (from, id, handler) in openEnded where highest >= from && called.insert(id).inserted {
      handler(change)
    }
  }
}
