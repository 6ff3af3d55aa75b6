extension Store {
  /// The changes every later save on this store publishes, from every session (contexts and
  /// the runner alike), in commit order.
  ///
  /// A save never waits for a subscriber: each subscriber has its own buffer of at most
  /// `limit` changes; when a slow subscriber's buffer is full, the oldest buffered change is
  /// dropped. A dropped change shows as a gap in ``CommittedChange/version``: consecutive saves
  /// have consecutive versions, so a subscriber that sees `version` jump by more than one
  /// missed the changes between (re-read the state it derives from the store then).
  /// The subscription ends when the iterating task is cancelled or the stream is released.
  /// - Parameter limit: The most changes buffered for this subscriber; `nil` buffers without
  ///   bound.
  public func changes(bufferingNewest limit: Int? = 1024) -> AsyncStream<CommittedChange> {
    let policy: AsyncStream<CommittedChange>.Continuation.BufferingPolicy =
      limit.map { .bufferingNewest(max($0, 1)) } ?? .unbounded
    let (stream, continuation) = AsyncStream.makeStream(
      of: CommittedChange.self, bufferingPolicy: policy)
    let id = subscribe { change in continuation.yield(change) }
    continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
    return stream
  }

  /// Calls `deliver` with every change a later save publishes, in commit order, while the
  /// saving session holds the store's lock: `deliver` must be quick and must not block, save
  /// or read ``version``.
  ///
  /// - Returns: The subscription, for ``unsubscribe(_:)``.
  public func subscribe(_ deliver: @escaping @Sendable (CommittedChange) -> Void) -> UInt64 {
    changeHub.add(nil, deliver)
  }

  /// Calls `deliver` with every change a later save publishes that touches one of `entities`
  /// or an entity with an index of at least `from` (one registered later), in commit order,
  /// under the same rules as ``subscribe(_:)``. Saves that touch none of them do not call it.
  ///
  /// - Returns: The subscription, for ``unsubscribe(_:)``.
  public func subscribe(
    touching entities: Set<Int>, orFrom from: Int = Int.max,
    _ deliver: @escaping @Sendable (CommittedChange) -> Void
  ) -> UInt64 {
    changeHub.add(ChangeHub.Interest(entities: entities, from: from), deliver)
  }

  /// Ends a subscription made with ``subscribe(_:)``.
  public func unsubscribe(_ subscription: UInt64) {
    changeHub.remove(subscription)
  }
}
