import ModelGraphCore

extension ModelContext {
  /// The keys relationship `slot` of the object `key` holds, in order (dead ones included).
  func relatedKeys(of key: ObjectKey, slot: Int) -> [ObjectKey] {
    session.relatedKeys(of: key, slot: slot)
  }

  /// Points relationship `slot` of `owner` at `keys` and keeps every inverse in step (see
  /// `Session.setRelationship(of:slot:to:)`); objects whose relationships change are marked
  /// changed through the session's observer.
  func setRelationship(of owner: ObjectKey, slot: Int, to newKeys: [ObjectKey]) {
    session.setRelationship(of: owner, slot: slot, to: newKeys)
  }
}

/// Keeps a context's objects in step with the graph edits its session makes on its own.
final class ContextSessionObserver: SessionObserver {
  // unowned(unsafe): the context alone holds the observer (its session holds it weakly), so
  // the observer never outlives it; a checked `unowned` cost three atomic operations a call.
  unowned(unsafe) let context: ModelContext

  init(_ context: ModelContext) {
    self.context = context
  }

  func session(_ session: Session, didWriteRelationship slot: Int, of key: ObjectKey) {
    context.relationshipsDidChange()
    // Without a handle, nothing in the context can have read the object or changed it.
    guard let object = context.registeredObject(for: key) else { return }
    context.observationDidWrite(object, relationshipSlot: slot)
    if object._status == .registered { context.markChanged(object) }
  }

  func session(_ session: Session, willDelete key: ObjectKey) {
    context.relationshipsDidChange()
    context.objectWillBeDeleted(key)
  }
}
