import ModelGraphCore

/// The graph rules come from the engine's ``Session``: inverses kept in step, delete rules,
/// and validation of the whole change set before a save publishes it.
extension ScriptEngine {
  /// Points relationship `slot` of `owner` at `keys`, updating the inverses.
  func setRelationship(of owner: ObjectKey, slot: Int, to keys: [ObjectKey]) {
    session.setRelationship(of: owner, slot: slot, to: keys)
  }

  /// Deletes the objects, applying the delete rules of their classes.
  ///
  /// - Returns: How many objects were deleted, cascades included.
  func deleteObjects(_ keys: [ObjectKey]) -> Int {
    keys.reduce(0) { $0 + session.deleteApplyingRules($1).count }
  }

  /// Validates the change set and publishes it, or throws with every rule broken; a failed
  /// save leaves the store and the unsaved changes as they were.
  func commitChanges(at location: SourceLocation) throws {
    repeat {
      session.rebaseOntoLatest()
      let violations = session.validate()
      guard violations.isEmpty else {
        let list = violations.map { "\($0) (\(identifier($0.key)))" }
        throw ScriptError(
          "save failed, nothing was saved: " + list.joined(separator: "; "), at: location)
      }
    } while session.publish() == nil
  }
}
