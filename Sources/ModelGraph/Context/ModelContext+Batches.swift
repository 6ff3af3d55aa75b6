public import ModelGraphCore

extension ModelContext {
  /// The objects `descriptor` selects, in its order, made one batch at a time as the returned
  /// collection is read.
  ///
  /// The matches' identities are found when this is called, from the state the fetch sees
  /// then; objects are made only when their batch is read. A sort that Foundation performs
  /// (one with no engine equivalent) makes every match once to sort, then releases them.
  /// - Parameters:
  ///   - descriptor: What to fetch, as for ``fetch(_:)``.
  ///   - batchSize: The number of objects made at a time; 1 or more.
  /// - Returns: The objects, as a collection that makes them per batch.
  /// - Throws: ``ModelError`` with code ``ModelError/Code/invalidDescriptor`` for a batch size
  ///   below 1, and as ``fetch(_:)`` throws.
  /// - Complexity: As ``fetch(_:)`` to find the matches, without making objects; then
  ///   O(`batchSize`) per batch read.
  public func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, batchSize: Int) throws
    -> FetchResultsCollection<T>
  {
    try checkBatchSize(batchSize)
    let keys = try matchingKeys(descriptor)
    let prefetching = descriptor.relationshipKeyPathsForPrefetching
    return FetchResultsCollection(
      loader: FetchBatchLoader(count: keys.count, batchSize: batchSize) { [self] range in
        let objects = models(keys[range], as: T.self, made: batchObject(for:))
        if !prefetching.isEmpty { prefetch(prefetching, of: objects.filter { !$0.isDeleted }) }
        return objects
      })
  }

  /// The identifiers of the objects `descriptor` selects, in its order, as a collection read
  /// in batches, as SwiftData spells it; no object is made (unless the predicate or the sort
  /// needs Foundation).
  ///
  /// - Parameters:
  ///   - descriptor: What to fetch, as for ``fetch(_:)``.
  ///   - batchSize: The number of identifiers made at a time; 1 or more.
  /// - Throws: As ``fetch(_:batchSize:)``.
  /// - Complexity: As ``fetchIdentifiers(_:)``.
  public func fetchIdentifiers<T: PersistentModel>(
    _ descriptor: FetchDescriptor<T>, batchSize: Int
  ) throws -> FetchResultsCollection<PersistentIdentifier> {
    try checkBatchSize(batchSize)
    let keys = try matchingKeys(descriptor)
    return FetchResultsCollection(
      loader: FetchBatchLoader(count: keys.count, batchSize: batchSize) { [self] range in
        keys[range].map(identifier(for:))
      })
  }

  /// Calls `block` with each object `descriptor` selects, in its order, making the objects one
  /// batch at a time so that memory stays bounded by the batch.
  ///
  /// - Parameters:
  ///   - descriptor: What to fetch, as for ``fetch(_:)``.
  ///   - batchSize: The number of objects made at a time; 1 or more.
  ///   - allowEscapingMutations: Whether `block` may leave unsaved changes behind. When
  ///     `false` (the default) and the context had no unsaved changes when the enumeration
  ///     began, a call of `block` that leaves some ends the enumeration with an error: changed
  ///     objects stay alive until saved, which defeats the batching. Save inside `block`, or
  ///     pass `true`.
  ///   - block: Called once per object; an error it throws ends the enumeration and is
  ///     rethrown.
  /// - Throws: ``ModelError`` with code ``ModelError/Code/escapingMutations`` as above, or as
  ///   ``fetch(_:batchSize:)`` throws.
  /// - Complexity: As ``fetch(_:batchSize:)``, plus the calls of `block`.
  public func enumerate<T: PersistentModel>(
    _ descriptor: FetchDescriptor<T>, batchSize: Int = 5000,
    allowEscapingMutations: Bool = false, block: (T) throws -> Void
  ) throws {
    let results = try fetch(descriptor, batchSize: batchSize)
    let checksMutations = !allowEscapingMutations && !hasChanges
    for position in results.indices {
      let object = results[position]
      if object.isDeleted { continue }
      try block(object)
      if checksMutations && hasChanges {
        throw ModelError(
          .escapingMutations,
          message:
            "enumerate's block left unsaved changes after object \(position) (\(object.persistentModelID)); save inside the block or pass allowEscapingMutations: true"
        )
      }
    }
  }

  /// Refuses a batch size below 1.
  private func checkBatchSize(_ batchSize: Int) throws {
    guard batchSize >= 1 else {
      throw ModelError(
        .invalidDescriptor, message: "batchSize is \(batchSize); it must be 1 or more")
    }
  }

  /// The keys of the objects `descriptor` selects, in its order and window.
  func matchingKeys<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws
    -> [ObjectKey]
  {
    let prepared = try prepareFetch(descriptor)
    if prepared.sortsInMemory {
      var noPrefetch = descriptor
      noPrefetch.relationshipKeyPathsForPrefetching = []
      return try fetch(noPrefetch).map(\._key)
    }
    return try prepared.keys()
  }

  /// The object of `key`, or, when it was deleted since the fetch, a handle that says so.
  private func batchObject(for key: ObjectKey) -> ModelObject {
    if session.contains(key) { return object(for: key) }
    let object = modelClass(forEntity: Int(key.entity)).init()
    object._setContext(self)
    object._key = key
    object._status = .deleted
    return object
  }
}
