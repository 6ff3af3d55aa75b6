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

extension Session {
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
