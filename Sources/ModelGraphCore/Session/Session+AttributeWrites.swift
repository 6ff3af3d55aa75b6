extension Session {
  // The one way every front end (typed objects, upsert, the runner) writes an attribute and
  // records the change, so the write and its record cannot drift apart.

  /// Records that attribute `slot` of the live object `key` was written in the working table:
  /// for a saved object, a change the next save publishes (and validates, and checks for
  /// conflicts); for a new one, that the attribute is set.
  ///
  /// Front ends that write the column themselves (the typed wrappers, through the column
  /// directly) call this right after the write.
  /// - Complexity: O(1).
  public func recordAttributeWrite(slot: Int, of key: ObjectKey) {
    // Each records only its own case: a saved object's change, a new object's set attribute.
    noteAttributeWrite(entity: Int(key.entity), row: Int(key.row), slot: slot)
    noteAttributeSet(slot, of: key)
  }

  /// ``recordAttributeWrite(slot:of:)`` for a front end that knows whether `key` is a new
  /// object (inserted by this session and not saved), as a typed object's status says: the
  /// session does not look it up again.
  ///
  /// - Complexity: O(1).
  public func recordAttributeWrite(slot: Int, of key: ObjectKey, isNew: Bool) {
    assert(
      isNew == isInserted(entity: Int(key.entity), row: Int(key.row)),
      "the object's status disagrees with the session")
    if isNew {
      noteAttributeSet(slot, of: key)
    } else {
      noteUpdate(entity: Int(key.entity), row: Int(key.row), slot: slot)
    }
  }

  /// Writes `value` into attribute `slot` of the live object `key` and records the write.
  ///
  /// - Returns: `false` when the value does not fit the column (nothing is written).
  /// - Complexity: O(1).
  public func writeAttribute(_ value: ModelValue, slot: Int, of key: ObjectKey) -> Bool {
    guard table(Int(key.entity)).attributeColumns[slot].setValue(value, at: Int(key.row)) else {
      return false
    }
    recordAttributeWrite(slot: slot, of: key)
    return true
  }

  /// Copies attribute `slot` of the live object `source` into the live object `target` (of
  /// the same entity) and records the write.
  ///
  /// - Complexity: O(1).
  public func copyAttribute(slot: Int, from source: ObjectKey, to target: ObjectKey) {
    let column = table(Int(target.entity)).attributeColumns[slot]
    column.copyValue(from: column, fromRow: Int(source.row), toRow: Int(target.row))
    recordAttributeWrite(slot: slot, of: target)
  }
}
