extension Session {
  /// Records that the new object `key` has non-optional attributes (`slots`) nothing set yet;
  /// ``validate()`` reports those still unset.
  public func noteUnsetAttributes(_ slots: SlotSet, of key: ObjectKey) {
    if slots.isEmpty { unsetAttributes[key] = nil } else { unsetAttributes[key] = slots }
  }

  /// Records that attribute `slot` of the new object `key` was set.
  @inline(__always)
  func noteAttributeSet(_ slot: Int, of key: ObjectKey) {
    if !unsetAttributes.isEmpty { unsetAttributes[key]?.remove(slot) }
  }

  /// The attribute slots of the new object `key` nothing set yet.
  public func unsetAttributes(of key: ObjectKey) -> SlotSet {
    unsetAttributes[key] ?? SlotSet()
  }
}
