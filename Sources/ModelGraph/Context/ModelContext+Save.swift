extension ModelContext {
  /// Publishes every unsaved change to the container, all at once, or none of them.
  ///
  /// The save first validates the whole change set; if any rule is broken it throws one error
  /// listing every violation, and the store, every other context and this context's pending
  /// changes stay as they were, so the caller can fix them or ``rollback()``.
  /// - Throws: ``ModelError`` with code ``ModelError/Code/validationFailed``.
  /// - Complexity: O(changes).
  public func save() throws {
    try validate()
    session.save()
    dropHandlesDeletedElsewhere()
    for object in insertedObjects where object._status == .inserted {
      object._status = .registered
    }
    for object in changedObjects { object._isChanged = false }
    for object in deletedObjects where object._status == .pendingDeletion {
      forget(object)
      object._status = .deleted
    }
    insertedObjects = []
    changedObjects = []
    deletedObjects = []
    missingAttributes = [:]
  }

  private func validate() throws {
    var violations: [ModelError.Violation] = []
    for (key, slots) in missingAttributes where session.contains(key) {
      let entity = session.catalog.entities[Int(key.entity)]
      for slot in slots.slots(below: entity.attributes.count) {
        violations.append(
          ModelError.Violation(
            entity: entity.name, property: entity.attributes[slot].name,
            identifier: identifier(for: key), rule: "a non-optional attribute was never set"))
      }
    }
    guard violations.isEmpty else {
      throw ModelError(
        .validationFailed,
        message: "save failed: \(violations.count) rule\(violations.count == 1 ? "" : "s") broken",
        violations: violations)
    }
  }

  /// Discards every unsaved change: inserted objects leave the context (keeping their values),
  /// changed objects return to their saved values, deleted objects come back.
  ///
  /// - Complexity: O(changes).
  public func rollback() {
    let discarded = insertedObjects.filter { $0._status == .inserted }
    let saved = discarded.map { object in
      let pending = PendingValues(info: object._classInfo)
      var values: [(any ColumnValue)?] = []
      if let table = object._table {
        let unset = missingAttributes[object._key] ?? SlotSet()
        values = table.attributeColumns.enumerated().map { slot, column in
          unset.contains(slot) ? nil : column.anyValue(at: object._row)
        }
        for slot in pending.relationships.indices {
          pending.relationships[slot] = object._relatedObjects(slot: slot)
        }
      }
      return (pending, values)
    }
    for (object, (pending, values)) in zip(discarded, saved) {
      forget(object)
      for (slot, value) in values.enumerated() {
        if let value { object._classInfo.restoreValue(value, of: object, slot: slot) }
      }
      object._pending = pending
      object.bindRow(nil, row: 0)
      object._context = nil
      object._key = .placeholder
      object._status = .new
    }
    session.rollback()
    for object in deletedObjects where object._status == .pendingDeletion {
      object._status = .registered
      object.bindRow(session.table(Int(object._key.entity)), row: object._row)
    }
    for object in changedObjects { object._isChanged = false }
    insertedObjects = []
    changedObjects = []
    deletedObjects = []
    missingAttributes = [:]
  }
}
