extension ModelContext {
  /// The objects `descriptor` selects, sorted, offset and limited as it says.
  ///
  /// - Throws: ``ModelError`` when the predicate throws, ``SchemaError`` when `T` is invalid.
  /// - Complexity: O(n) in the objects of the classes visited, plus O(m log m) to sort the m
  ///   matches.
  public func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [T] {
    var results: [T] = []
    try forEachMatch(descriptor) { results.append($0) }
    if !descriptor.sortBy.isEmpty {
      results.sort(using: descriptor.sortBy)
    }
    let offset = min(max(descriptor.fetchOffset ?? 0, 0), results.count)
    let end = descriptor.fetchLimit.map { min(results.count, offset + max($0, 0)) } ?? results.count
    if offset == 0 && end == results.count { return results }
    return Array(results[offset..<end])
  }

  /// The number of objects `descriptor` selects, ignoring its sort.
  ///
  /// - Complexity: O(1) per class visited without a predicate; O(n) with one.
  public func fetchCount<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> Int {
    var count = 0
    if descriptor.predicate == nil && descriptor.includePendingChanges {
      refreshIfClean()
      count = try candidateEntities(descriptor).reduce(0) { $0 + session.table($1).liveCount }
    } else {
      try forEachMatch(descriptor) { _ in count += 1 }
    }
    let offset = max(descriptor.fetchOffset ?? 0, 0)
    count = max(count - offset, 0)
    return descriptor.fetchLimit.map { min(count, max($0, 0)) } ?? count
  }

  /// The identifiers of the objects `descriptor` selects, in its order.
  public func fetchIdentifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws
    -> [PersistentIdentifier]
  {
    try fetch(descriptor).map(\.persistentModelID)
  }

  /// The entity indices a fetch of `T` visits.
  func candidateEntities<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [Int] {
    let entity = try entityIndex(for: T.self)
    guard descriptor.includesSubclasses else { return [entity] }
    return session.catalog(covering: entity).subtree(of: entity)
  }

  /// Calls `body` with every object of the visited classes that the predicate accepts.
  private func forEachMatch<T: PersistentModel>(
    _ descriptor: FetchDescriptor<T>, _ body: (T) -> Void
  ) throws {
    refreshIfClean()
    for entity in try candidateEntities(descriptor) {
      let table = session.table(entity)
      let committed = descriptor.includePendingChanges ? nil : session.committedTable(entity)
      try table.forEachLiveRow { row in
        let generation = table.generation(of: row)
        if let committed,
          !committed.contains(ObjectKey(entity: entity, row: row, generation: generation))
        {
          return
        }
        let object = object(for: ObjectKey(entity: entity, row: row, generation: generation))
        guard let typed = object as? T else { return }
        if let predicate = descriptor.predicate {
          let accepted: Bool
          do {
            accepted = try predicate.evaluate(typed)
          } catch {
            throw ModelError(.predicateFailed, message: "the predicate threw: \(error)")
          }
          guard accepted else { return }
        }
        body(typed)
      }
    }
  }
}
