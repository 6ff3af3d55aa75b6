/// The unsaved changes of one entity's table, as validation sees them.
public struct EntityChanges: Sendable {
  /// The entity.
  public var entity: Int
  /// Rows of new objects that are still alive.
  public var insertedRows: [Int]
  /// Rows of saved objects with the attribute slots written.
  public var updatedRows: [(row: Int, slots: SlotSet)]
  /// Rows of saved objects whose relationships were written.
  public var relationshipRows: [Int]
  /// Keys of saved objects deleted.
  public var deletedKeys: [ObjectKey]
}

/// Whether a row's object has unsaved changes of its own, as a handle made for it shows them.
public enum UnsavedRowState: Sendable {
  /// Saved and unchanged (or not a row of this session).
  case unchanged
  /// Inserted by this session and not saved.
  case inserted
  /// Saved, with unsaved attribute or relationship writes.
  case updated
}

extension Session {
  /// Whether the object in live `row` of `entity` is new, changed, or neither.
  ///
  /// - Complexity: O(1); one array test when the session has no changes to `entity`.
  @inline(__always)
  public func unsavedState(entity: Int, row: Int) -> UnsavedRowState {
    guard let change = changes[entity] else { return .unchanged }
    if !change.inserted.isEmpty && isInserted(entity: entity, row: row) { return .inserted }
    return change.updated[row] != nil || change.relationshipsUpdated.contains(row)
      ? .updated : .unchanged
  }

  /// Whether the session recorded unsaved changes to objects of `entity`; without any, every
  /// row of it is ``UnsavedRowState/unchanged`` (see ``unsavedState(entity:row:)``).
  ///
  /// - Complexity: O(1).
  public func hasUnsavedChanges(entity: Int) -> Bool { changes[entity] != nil }

  /// Whether the saved object in `row` of `entity` has unsaved attribute or relationship writes.
  public func isUpdated(entity: Int, row: Int) -> Bool {
    guard let change = changes[entity] else { return false }
    return change.updated[row] != nil || change.relationshipsUpdated.contains(row)
  }

  /// The saved objects deleted and not yet saved, by entity; empty (and allocation-free) when
  /// there are none.
  ///
  /// - Complexity: O(entities changed + deletions).
  public var pendingDeletions: [(entity: Int, keys: [ObjectKey])] {
    changes.compactMap { entity, change in
      guard !change.deleted.isEmpty else { return nil }
      return (
        entity, change.deleted.map { ObjectKey(entity: entity, row: $0.key, generation: $0.value) }
      )
    }
  }

  /// The unsaved changes, per entity with any.
  ///
  /// - Complexity: O(changes).
  public var changeSet: [EntityChanges] {
    changes.compactMap { entity, change in
      guard !change.isEmpty else { return nil }
      let table = table(entity)
      return EntityChanges(
        entity: entity, insertedRows: change.inserted.filter { table.isAlive($0) },
        updatedRows: change.updated.map { ($0.key, $0.value) },
        relationshipRows: Array(change.relationshipsUpdated),
        deletedKeys: change.deleted.map {
          ObjectKey(entity: entity, row: $0.key, generation: $0.value)
        })
    }
  }
}
