import ModelGraphCore

extension ModelContext {
  /// The objects inserted and not yet saved, in insertion order; a handle is made (registered,
  /// new) for each that nobody holds any more.
  ///
  /// - Complexity: O(inserted objects).
  var insertedObjects: [ModelObject] {
    insertedKeys.compactMap { key in
      guard session.contains(key), session.isInserted(entity: Int(key.entity), row: Int(key.row))
      else { return nil }
      let object = self.object(for: key)
      return object._status == .inserted ? object : nil
    }
  }

  /// The saved objects changed and not yet saved, each once; a handle is made (registered,
  /// changed) for each that nobody holds any more. Drops the repeated keys of ``changedKeys``.
  ///
  /// - Complexity: O(changed keys + superseded handles).
  var changedObjects: [ModelObject] {
    var seen = Set<ObjectKey>()
    var keys: [ObjectKey] = []
    var objects: [ModelObject] = []
    for key in changedKeys where seen.insert(key).inserted {
      keys.append(key)
      guard session.contains(key) else { continue }
      let object = self.object(for: key)
      if object._status == .registered && object._isChanged { objects.append(object) }
    }
    changedKeys = keys
    for entry in supersededHandles {
      guard let object = entry.object, object._status == .registered, object._isChanged else {
        continue
      }
      objects.append(object)
    }
    return objects
  }

  /// The saved objects deleted and not yet saved; a handle is made (registered, deleted) for
  /// each that nobody holds any more.
  ///
  /// - Complexity: O(deleted objects + superseded handles).
  var deletedObjects: [ModelObject] {
    var objects: [ModelObject] = []
    for key in deletedKeys {
      let object = registeredObject(for: key) ?? makeDeletedHandle(for: key)
      if object._status == .pendingDeletion { objects.append(object) }
    }
    for entry in supersededHandles {
      guard let object = entry.object, object._status == .pendingDeletion else { continue }
      objects.append(object)
    }
    return objects
  }

  /// A registered handle of the saved object `key`, whose deletion is not saved yet.
  private func makeDeletedHandle(for key: ObjectKey) -> ModelObject {
    let object = modelClass(forEntity: Int(key.entity)).init()
    object._setContext(self)
    object._key = key
    object.bindRow(nil)
    object._status = .pendingDeletion
    register(object)
    return object
  }

  /// Gives a handle made for `key`'s row the unsaved state the session holds for it: new
  /// (with its unset attributes marked again) or changed.
  ///
  /// A handle with unsaved changes that nobody held was freed (the context holds none); the
  /// session kept its changes, which the handle made again shows.
  /// - Complexity: O(1) when the session has no changes to the row's table.
  @inline(__always)
  func applyUnsavedState(to object: ModelObject, key: ObjectKey) {
    switch session.unsavedState(entity: Int(key.entity), row: Int(key.row)) {
    case .unchanged:
      return
    case .inserted:
      object._status = .inserted
      let unset = session.unsetAttributes(of: key)
      guard !unset.isEmpty else { return }
      let info = object._classInfo
      for slot in unset.slots(below: info.attributeWrappers.count) {
        info.markUnset(slot, of: object, true)
      }
      object._hasUnsetAttributes = true
    case .updated:
      object._isChanged = true
      changedKeys.append(key)
    }
  }

  /// After a save published: the live objects take their saved state (inserted ones become
  /// saved, changed ones unchanged, deleted ones leave the identity map), and the lists of
  /// unsaved changes are emptied.
  ///
  /// - Complexity: O(changes + superseded handles).
  func unsavedObjectsDidSave() {
    for key in insertedKeys {
      if let object = registeredObject(for: key), object._status == .inserted {
        object._status = .registered
      }
    }
    for key in changedKeys { registeredObject(for: key)?._isChanged = false }
    for key in deletedKeys {
      if let object = registeredObject(for: key), object._status == .pendingDeletion {
        forget(object)
        object._status = .deleted
      }
    }
    for entry in supersededHandles {
      guard let object = entry.object else { continue }
      object._isChanged = false
      if object._status == .inserted { object._status = .registered }
      if object._status == .pendingDeletion { object._status = .deleted }
    }
    insertedKeys = []
    changedKeys = []
    deletedKeys = []
  }

  /// After a rollback: the live deleted objects come back, the live changed ones are unchanged
  /// (their trackings fire), and the lists of unsaved changes are emptied.
  ///
  /// - Complexity: O(changes + superseded handles).
  func unsavedObjectsDidRollBack() {
    for key in deletedKeys {
      if let object = registeredObject(for: key) { restoreDeleted(object) }
    }
    for key in changedKeys {
      if let object = registeredObject(for: key) { revertChanged(object) }
    }
    for entry in supersededHandles {
      guard let object = entry.object else { continue }
      restoreDeleted(object)
      revertChanged(object)
    }
    insertedKeys = []
    changedKeys = []
    deletedKeys = []
  }

  private func restoreDeleted(_ object: ModelObject) {
    guard object._status == .pendingDeletion else { return }
    object._status = .registered
    object.bindRow(session.table(Int(object._key.entity)))
  }

  /// Marks `object` unchanged and fires its trackings, once however often its key is listed.
  private func revertChanged(_ object: ModelObject) {
    guard object._isChanged else { return }
    object._isChanged = false
    observationDidRevert(object)
  }
}
