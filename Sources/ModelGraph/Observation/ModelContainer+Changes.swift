public import ModelGraphCore

extension ModelContainer {
  /// The changes every later save publishes, from every context on this container and every
  /// session on its store (the runner's too), in commit order.
  ///
  /// Each ``CommittedChange`` carries the version, the saving context's ``ModelContext/author``,
  /// the inserted identifiers, the updated identifiers with the attributes written, and the
  /// deleted identifiers with their `.preserveValueOnDeletion` values.
  ///
  /// A save never waits for a subscriber. Overflow policy: each subscriber buffers at most
  /// `limit` changes, and when it is full the oldest is dropped; the subscriber sees a gap in
  /// ``CommittedChange/version`` (consecutive saves have consecutive versions).
  /// ```swift
  /// for await change in container.changes() {
  ///   cache.invalidate(change.updated.map(\.identifier))
  /// }
  /// ```
  /// - Parameter limit: The most changes buffered; `nil` buffers without bound.
  public func changes(bufferingNewest limit: Int? = 1024) -> AsyncStream<CommittedChange> {
    store.changes(bufferingNewest: limit)
  }
}
