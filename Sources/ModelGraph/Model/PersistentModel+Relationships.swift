extension PersistentModel {
  /// The objects relationship `slot` points at, in order.
  @usableFromInline
  final func _relatedObjects(slot: Int) -> [PersistentModel] {
    if _probe != nil {
      _probe!.append(.relationship(slot))
      return []
    }
    guard let table = _table, let context = _context else {
      checkNotDeleted()
      return _pending?.relationships[slot] ?? []
    }
    accessRelationship(slot: slot)
    return context.objects(for: relationshipKeys(in: table, slot: slot))
  }

  /// Points relationship `slot` at `models`, inserting new ones into this object's context.
  @usableFromInline
  final func _setRelatedObjects(slot: Int, _ models: [PersistentModel]) {
    checkNotDeleted()
    if _context == nil, let context = models.lazy.compactMap(\._context).first {
      // Pointing a new object at managed ones inserts it into their context, as in SwiftData.
      context.insert(self)
    }
    guard _table != nil, let context = _context else {
      if _pending == nil { _pending = PendingValues(info: _classInfo) }
      _pending!.relationships[slot] = models
      return
    }
    let keys = models.map { context.adopt($0) }
    context.setRelationship(of: _key, slot: slot, to: keys)
  }

  final func relationshipKeys(in table: Table, slot: Int) -> [ObjectKey] {
    table.relatedKeys(row: _row, slot: slot)
  }
}
