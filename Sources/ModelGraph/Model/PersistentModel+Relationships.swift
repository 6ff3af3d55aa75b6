import ModelGraphCore

extension ModelObject {
  /// The objects relationship `slot` points at, in order.
  @usableFromInline
  final func _relatedObjects(slot: Int) -> [ModelObject] {
    if _probe != nil {
      _probe!.append(.relationship(slot))
      return []
    }
    guard let table = _tableReference, let context = _context.map(Unmanaged.passUnretained)
    else {
      checkNotDeleted()
      return _pendingRelationships?[slot] ?? []
    }
    // Without a reference count: the object holds its context, which keeps its tables.
    return context._withUnsafeGuaranteedRef { context in
      accessRelationship(slot: slot, in: context)
      if let prefetched = context.prefetchedRelated(self, slot: slot) { return prefetched }
      return table.takeUnretainedValue().withRelatedKeys(row: _row, slot: slot) { keys in
        var resolver = RelatedObjectResolver()
        return resolver.objects(for: keys, in: context)
      }
    }
  }

  /// Points relationship `slot` at `models`, inserting new ones into this object's context.
  @usableFromInline
  final func _setRelatedObjects(slot: Int, _ models: [ModelObject]) {
    checkNotDeleted()
    if _context == nil, let context = models.lazy.compactMap(\._context).first {
      // Pointing a new object at managed ones inserts it into their context, as in SwiftData.
      context.adopt(self)
    }
    guard _table != nil, let context = _context else {
      let state = _makeSideState()
      if state.pendingRelationships == nil {
        state.pendingRelationships = Array(
          repeating: nil, count: _classInfo.relationshipWrappers.count)
      }
      state.pendingRelationships![slot] = models
      return
    }
    var keys: [ObjectKey] = []
    keys.reserveCapacity(models.count)
    for model in models {
      if let key = context.adopt(model) { keys.append(key) }
    }
    // An object whose class cannot be stored was refused (the next save throws); the
    // relationship keeps its value rather than point at part of what was assigned.
    guard keys.count == models.count else { return }
    context.setRelationship(of: _key, slot: slot, to: keys)
  }
}
