extension PersistentModel {
  /// The value of attribute `slot` of an object without a row (new, deleted or a probe).
  @usableFromInline
  final func _unmanagedValue<Value: PersistentValue>(slot: Int, initial: Value?) -> Value {
    if _probe != nil {
      _probe!.append(.attribute(slot))
      return initial ?? Value.probeValue
    }
    checkNotDeleted()
    if let pending = _pending?.attributes[slot] {
      return Value.fromStored(pending as! Value.Stored)
    }
    if let initial { return initial }
    if Value.isOptionalValue { return Value.fromStored(Value.Stored.placeholder) }
    preconditionFailure(
      "\(type(of: self)).\(_classInfo.attributeName(slot)) was read before it was set")
  }

  /// Stores attribute `slot` of an object without a row.
  @usableFromInline
  final func _setUnmanagedValue(slot: Int, _ value: any ColumnValue) {
    checkNotDeleted()
    if _pending == nil { _pending = PendingValues(info: _classInfo) }
    _pending!.attributes[slot] = value
  }

  /// Records a write to attribute `slot` of a managed object.
  @usableFromInline
  final func _didWrite(slot: Int) {
    _context!.noteWrite(self, attributeSlot: slot)
  }

  func checkNotDeleted() {
    precondition(
      _status != .deleted && _status != .pendingDeletion,
      "\(type(of: self)) object was used after it was deleted")
  }
}
