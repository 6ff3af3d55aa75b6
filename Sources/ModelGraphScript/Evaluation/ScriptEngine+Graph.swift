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
    keys.reduce(0) { $0 + session.deleteApplyingRulesCounting($1) }
  }

  /// Validates the change set and publishes it, or throws with every rule broken; a failed
  /// save leaves the store and the unsaved changes as they were.
  func commitChanges(at location: SourceLocation) throws {
    repeat {
      do {
        try session.rebaseOntoLatest()
      } catch {
        throw ScriptError(
          "save failed, nothing was saved: another save changed the same objects: "
            + error.conflicts.map { describe($0) }.joined(separator: "; "), at: location)
      }
      let violations = session.validate()
      guard violations.isEmpty else {
        let list = violations.map { "\($0) (\(identifier($0.key)))" }
        throw ScriptError(
          "save failed, nothing was saved: " + list.joined(separator: "; "), at: location)
      }
    } while try session.publish() == nil
  }

  /// A conflict as the runner prints it: the object, then what collided.
  private func describe(_ conflict: Conflict) -> String {
    let entity = session.catalog.entities[Int(conflict.key.entity)]
    switch conflict.kind {
    case .attribute(let slot):
      return "\(identifier(conflict.key)).\(entity.attributes[slot].name) was changed by both"
    case .relationship(let slot):
      return "\(identifier(conflict.key)).\(entity.relationships[slot].name) was set by both"
    case .changedDeletedObject:
      return "\(identifier(conflict.key)) was deleted by the other save"
    case .referencesDeletedObject(let slot, let target):
      return "\(identifier(conflict.key)).\(entity.relationships[slot].name) points at "
        + "\(identifier(target)), which the other save deleted"
    case .deletedChangedObject:
      return "\(identifier(conflict.key)) was changed by the other save"
    }
  }
}
