extension ModelObject {
  /// The value of attribute `slot` of an object without a row (new, deleted or a probe).
  @usableFromInline
  final func _unmanagedValue<Value>(slot: Int, value: Value?) -> Value {
    if _probe != nil {
      _probe!.append(.attribute(slot))
      return value ?? AttributeStorage.probeValue(Value.self)
    }
    checkNotDeleted()
    if let value { return value }
    if let none = AttributeStorage.nilValue(Value.self) { return none }
    fatalError(
      "\(type(of: self)).\(_classInfo.attributeName(slot)) was read before it was set")
  }

  /// Records a write to attribute `slot` of a managed object.
  @usableFromInline
  final func _didWrite(slot: Int) {
    // The write's trackings run the app's code, which may let go of the object's hold on its
    // context (a rollback in `onChange`): the context is held for the call.
    let context = Unmanaged.passUnretained(_context!).retain()
    defer { context.release() }
    context._withUnsafeGuaranteedRef { $0.noteWrite(self, attributeSlot: slot) }
  }

  /// Stops with a message when the object was deleted.
  @usableFromInline
  final func checkNotDeleted() {
    require(
      _status != .deleted && _status != .pendingDeletion,
      "\(type(of: self)) object was used after it was deleted")
  }
}
