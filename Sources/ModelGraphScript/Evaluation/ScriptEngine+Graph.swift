import ModelGraphCore

// PROVISIONAL: relationship maintenance, delete rules and save validation move into
// ModelGraphCore's Session; these three functions switch to that API when it lands.

extension ScriptEngine {
  /// Points relationship `slot` of `owner` at `keys`.
  func setRelationship(of owner: ObjectKey, slot: Int, to keys: [ObjectKey]) {
    session.table(Int(owner.entity)).setRelatedKeys(keys, row: Int(owner.row), slot: slot)
    session.noteRelationshipWrite(entity: Int(owner.entity), row: Int(owner.row))
  }

  /// Deletes the objects.
  ///
  /// - Returns: How many objects were deleted.
  func deleteObjects(_ keys: [ObjectKey]) -> Int {
    for key in keys { session.delete(key) }
    return keys.count
  }

  /// Validates and publishes the session's changes.
  func commitChanges(at location: SourceLocation) throws {
    session.save()
  }
}
