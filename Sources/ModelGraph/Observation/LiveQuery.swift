public import ModelGraphCore

/// A fetch whose results are delivered again whenever a save changes them.
///
/// ```swift
/// let upcoming = try LiveQuery(
///   FetchDescriptor<Trip>(predicate: #Predicate { $0.startDate > now }, sortBy: [SortDescriptor(\.startDate)]),
///   in: container)
/// for try await update in upcoming.updates() {
///   render(update.identifiers, inserted: update.insertedIndexes, removed: update.removedIndexes)
/// }
/// ```
/// The query re-runs only after a save that touches what it reads (see ``isAffected(by:)``),
/// and at most one re-run waits at a time: saves that arrive while it runs are coalesced into
/// the next run. See <doc:LiveQueries>.
public struct LiveQuery<T: PersistentModel>: Sendable {
  /// The fetch observed.
  public let descriptor: FetchDescriptor<T>
  /// The container whose saves it observes.
  public let container: ModelContainer
  let reads: QueryReads

  /// A live query of `descriptor` on `container`'s saved state.
  ///
  /// - Throws: ``ModelError`` when the descriptor's window is invalid, or ``SchemaError`` when
  ///   its class cannot be registered.
  /// - Complexity: O(size of the predicate and sort); it runs no fetch.
  public init(_ descriptor: FetchDescriptor<T>, in container: ModelContainer) throws {
    let context = ModelContext(container)
    try context.checkWindow(descriptor)
    self.descriptor = descriptor
    self.container = container
    reads = try context.queryReads(descriptor)
  }

  /// Whether `change` can change the results: it inserted or deleted objects of the class (or
  /// a subclass, when the descriptor includes them), or wrote an attribute that the predicate
  /// or the sort reads. A query whose predicate follows relationships, or has parts only
  /// `Predicate.evaluate` can run, counts every save as one that can change it.
  ///
  /// - Complexity: O(classes the change touched × attributes it wrote there); no fetch.
  public func isAffected(by change: CommittedChange) -> Bool {
    reads.isAffected(by: change)
  }

  /// The results now, then again after every save that changed them, each with its difference
  /// from the one before.
  ///
  /// Updates are buffered without bound, so each difference is from the update delivered just
  /// before it; re-runs are coalesced, so a slow consumer gets fewer, not more, updates. A
  /// save that does not change the results (or the order) delivers nothing. The stream ends
  /// with the error when a fetch throws, and stops observing when the consumer's task is
  /// cancelled or the stream is released.
  ///
  /// - Complexity: One fetch of the descriptor at the start and one per affecting save
  ///   (coalesced), plus one ``isAffected(by:)`` per save of the query's classes (of every
  ///   class when the predicate follows relationships).
  public func updates() -> AsyncThrowingStream<LiveQueryUpdate, any Error> {
    let (output, results) = AsyncThrowingStream.makeStream(of: LiveQueryUpdate.self)
    let (signals, wake) = AsyncStream.makeStream(
      of: Void.self, bufferingPolicy: .bufferingNewest(1))
    let reads = reads
    let store = container.store
    let signal: @Sendable (CommittedChange) -> Void = { change in
      if reads.isAffected(by: change) { wake.yield() }
    }
    // A query that reads only its own classes' tables hears only of saves that touch them.
    let subscription =
      reads.readsEverything
      ? store.subscribe(signal)
      : store.subscribe(touching: reads.entities, orFrom: reads.entityCount, signal)
    let descriptor = descriptor
    let container = container
    let task = Task.detached {
      let context = ModelContext(container)
      var previous: [PersistentIdentifier]?
      do {
        wake.yield()
        for await _ in signals {
          let identifiers = try context.fetchIdentifiers(descriptor)
          if identifiers == previous { continue }
          results.yield(
            LiveQueryUpdate(
              version: context.session.base.number, identifiers: identifiers,
              previous: previous ?? []))
          previous = identifiers
        }
        results.finish()
      } catch {
        results.finish(throwing: error)
      }
    }
    results.onTermination = { _ in
      store.unsubscribe(subscription)
      wake.finish()
      task.cancel()
    }
    return output
  }
}

extension ModelContainer {
  /// The results of `descriptor` now and after every save that changes them; a shorthand for
  /// ``LiveQuery/updates()``.
  ///
  /// - Complexity: As ``LiveQuery/updates()``.
  public func observe<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws
    -> AsyncThrowingStream<LiveQueryUpdate, any Error>
  {
    try LiveQuery(descriptor, in: self).updates()
  }
}
