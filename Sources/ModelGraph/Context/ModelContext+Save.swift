import ModelGraphCore

extension ModelContext {
  /// Publishes every unsaved change to the container, all at once, or none of them.
  ///
  /// The save first validates the whole change set; if any rule is broken it throws one error
  /// listing every violation, and the store, every other context and this context's pending
  /// changes stay as they were, so the caller can fix them or ``rollback()``.
  /// The rules checked: non-optional attributes set, unique attributes and unique constraints
  /// (``ModelIndex/unique(_:_:_:)``) unique across their class hierarchy (against the store and
  /// within the change set), deny rules of deleted objects, and the count limits of to-many
  /// relationships.
  ///
  /// When another context saved since this one read its objects, the changes are replayed
  /// onto that newer state; changes that collide with it are settled by ``mergePolicy``, and by
  /// default refuse the save with ``ModelError/Code/conflict``; so are the collisions that
  /// ``model(for:)`` let through, keeping this context's values, in a PostgreSQL store keeping
  /// only fetched objects. After a refused save, call
  /// ``rollback()`` (or fetch again and redo the change) and retry.
  /// - Returns: A deletion record per deleted object, holding the values of its attributes
  ///   marked `.preserveValueOnDeletion` (SwiftData's `save()` returns nothing; the result is
  ///   discardable).
  /// - Throws: ``ModelError`` with code ``ModelError/Code/validationFailed`` or
  ///   ``ModelError/Code/conflict``; with ``ModelError/Code/schema`` when an object of a class
  ///   that cannot be registered was inserted (until it is deleted or rolled back).
  /// - Complexity: O(changes), plus O(chunks of a hierarchy's tables) for each unique attribute
  ///   or compound unique constraint written (checked through the hash index of each of its
  ///   attributes).
  @discardableResult
  public func save() throws -> [DeletionRecord] {
    try checkRefusedInserts()
    postWillSave()
    var records: [DeletionRecord]
    let resolver = conflictResolver()
    do {
      try settleDeferredConflicts(resolver)
      repeat {
        // Validate against the version the save publishes onto: rebase first when another
        // context saved since, and again if one saves while this one validates. The saves
        // rebased onto may still be syncing (not in the history yet): their trackings fire
        // once this save is durable, and so are they.
        do {
          if try session.rebaseOntoLatest(resolving: resolver) {
            dropHandlesDeletedElsewhere(firesObservation: false)
          }
        } catch {
          throw saveConflictError(error.conflicts)
        }
        if uniquenessPolicy == .upsert { mergeDuplicateInserts() }
        try validate()
        records = deletionRecords()
      } while try publishReportingUniqueness() == nil
    } catch {
      observationDidAbsorbForeignChanges()
      throw error
    }
    defer { compactIdentityMap() }
    // The objects take their saved state before any tracking fires: an `onChange` may write
    // to them, and such a write is a change for the next save.
    unsavedObjectsDidSave()
    // Resolved on the version before the save, so no longer read.
    prefetched = nil
    dropHandlesDeletedElsewhere()
    // Every save before this one is durable and in the history now.
    observationDidAbsorbForeignChanges(through: max(session.base.number, 1) - 1)
    observationDidSave()
    postDidSave()
    return records
  }

  /// Discards every unsaved change: inserted objects leave the context (keeping their values),
  /// changed objects return to their saved values, deleted objects come back.
  ///
  /// The context then moves to the newest saved state, so after a save refused for a conflict
  /// the change can be redone on fresh data in any order.
  /// - Complexity: O(changes), plus O(tables) when other contexts saved meanwhile.
  public func rollback() {
    // The live ones only: a new object nobody holds any more is simply discarded.
    let discarded = insertedKeys.compactMap { key -> ModelObject? in
      guard let object = registeredObject(for: key), object._status == .inserted else {
        return nil
      }
      return object
    }
    let saved = discarded.map { object in
      var pending = [[ModelObject]?](
        repeating: nil, count: object._classInfo.relationshipWrappers.count)
      var values: [(any ColumnValue)?] = []
      if let table = object._table {
        let unset = session.unsetAttributes(of: object._key)
        values = table.attributeColumns.enumerated().map { slot, column in
          unset.contains(slot) ? nil : column.anyValue(at: object._row)
        }
        for slot in pending.indices {
          pending[slot] = object._relatedObjects(slot: slot)
        }
      }
      return (pending, values)
    }
    for (object, (pending, values)) in zip(discarded, saved) {
      forget(object)
      for (slot, value) in values.enumerated() {
        if let value { object._classInfo.restoreValue(value, of: object, slot: slot) }
      }
      object._pendingRelationships = pending
      object.bindRow(nil)
      object._setContext(nil)
      object._key = .placeholder
      object._status = .new
    }
    session.rollback()
    relationshipsDidChange()
    // No longer read after the rollback (see `save()`).
    prefetched = nil
    unsavedObjectsDidRollBack()
    refusedInserts = []
    deferredConflicts = []
    refreshIfClean()
  }

  /// The error of a save refused for `conflicts`.
  func saveConflictError(_ conflicts: [Conflict]) -> ModelError {
    let conflicts = conflicts.map(modelConflict)
    return ModelError(
      .conflict,
      message: conflicts.count == 1
        ? "save refused: 1 change collides with a save of another context"
        : "save refused: \(conflicts.count) changes collide with saves of other contexts",
      conflicts: conflicts)
  }
}
