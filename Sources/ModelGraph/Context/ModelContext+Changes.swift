import ModelGraphCore

extension ModelContext {
  /// Inserts a new object, and the new objects its relationships point at, into the context.
  ///
  /// Inserting an object that the context already manages does nothing. The object's values
  /// move into the context's tables; it is saved by the next ``save()``.
  ///
  /// An object of a class the container was not given registers its class here. When that
  /// class cannot be stored (a stored property without a wrapper, say), the object stays
  /// outside the context and the next ``save()``, or a fetch whose results would include it,
  /// throws ``ModelError/Code/schema`` naming the class and property, until the object is
  /// deleted or the context rolled back.
  /// - Precondition: The object belongs to no other context and was not deleted.
  /// - Complexity: O(attributes + relationships).
  public func insert<T: PersistentModel>(_ model: T) {
    _ = adopt(model)
  }

  /// Makes `model` managed by this context if it is new, and returns its key; `nil` when its
  /// class cannot be registered, which is recorded for the next ``save()`` to throw.
  @discardableResult
  func adopt(_ model: ModelObject) -> ObjectKey? {
    if let context = model._context {
      require(context === self, "\(type(of: model)) object belongs to another ModelContext")
      model.checkNotDeleted()
      return model._key
    }
    model.checkNotDeleted()
    let entity: Int
    do {
      entity = try entityIndex(for: type(of: model))
    } catch {
      // `insert` cannot throw (SwiftData's spelling): the object stays outside the context and
      // the next save, or a fetch whose results would include it, throws.
      refuseInsert(of: model, because: error)
      return nil
    }
    let key = session.insert(entity: entity)
    let table = session.table(entity)
    let info = model._classInfo
    let pending = model._pendingRelationships
    var missing = SlotSet()
    let row = Int(key.row)
    for slot in info.attributeWrappers.indices {
      let moved = info.moveValue(
        of: model, slot: slot, into: table.attributeColumns[slot], row: row)
      if !moved && !table.entity.attributes[slot].isOptional {
        missing.insert(slot)
      }
    }
    model.bindRow(table)
    for slot in missing.slots(below: info.attributeWrappers.count) {
      // Until it is set, the attribute reads through the object, which stops with its name
      // instead of reading the column's zero.
      info.markUnset(slot, of: model, true)
      model._hasUnsetAttributes = true
    }
    model._setContext(self)
    model._key = key
    model._status = .inserted
    model._pendingRelationships = nil
    register(model)
    insertedKeys.append(key)
    if !missing.isEmpty { session.noteUnsetAttributes(missing, of: key) }
    if let pending {
      for (slot, models) in pending.enumerated() {
        if let models { model._setRelatedObjects(slot: slot, models) }
      }
    }
    return key
  }

  /// Records a write to attribute `slot` of a managed object, and fires its trackings.
  ///
  /// The trackings run the app's code (`onChange`), which may roll back or otherwise let go of
  /// the object's hold on this context: the caller holds the context for the call.
  func noteWrite(_ model: ModelObject, attributeSlot slot: Int) {
    switch model._status {
    case .inserted:
      session.recordAttributeWrite(slot: slot, of: model._key, isNew: true)
      // The attribute may have been unset: its wrapper reads the column from now on.
      if model._hasUnsetAttributes { model._classInfo.markUnset(slot, of: model, false) }
    case .registered:
      session.recordAttributeWrite(slot: slot, of: model._key, isNew: false)
      markChanged(model)
    default:
      return
    }
    observationDidWrite(model, attributeSlot: slot)
  }

  func markChanged(_ model: ModelObject) {
    if !model._isChanged {
      model._isChanged = true
      changedKeys.append(model._key)
    }
  }

  /// Deletes an object; the deletion is published by the next ``save()``.
  ///
  /// Deleting an object that was inserted and never saved simply discards it. Deleting an
  /// object of no context does nothing, except withdraw an insert this context refused (an
  /// object of a class it could not register). After deletion, using the object's properties
  /// stops with a message.
  /// - Complexity: O(1).
  public func delete<T: PersistentModel>(_ model: T) {
    guard let context = model._context else {
      withdrawRefusedInsert(of: model)
      return
    }
    require(context === self, "\(type(of: model)) object belongs to another ModelContext")
    guard model._status == .inserted || model._status == .registered else { return }
    session.deleteApplyingRulesCounting(model._key)
  }

  /// Moves the handle of the live object `key`, if any, to its deleted state, as the session
  /// is about to delete the object, and records the deletion of a saved object.
  func objectWillBeDeleted(_ key: ObjectKey) {
    supersededHandlesWillBeDeleted(key)
    guard let model = registeredObject(for: key) else {
      // No handle (a cascade reached a saved object nobody fetched, or nobody holds it any
      // more): `deletedModelsArray` makes one only if asked, so a large cascade does not build
      // an object per row.
      if !session.isInserted(entity: Int(key.entity), row: Int(key.row)) {
        deletedKeys.append(key)
      }
      return
    }
    // Its properties can no longer be read: every tracking of them fires.
    observationDidRevert(model)
    if model._status == .inserted {
      detach(model)
    } else {
      model._status = .pendingDeletion
      model.bindRow(nil)
      deletedKeys.append(key)
    }
  }

  /// Deletes every object of `model` (and, by default, its subclasses) that matches `predicate`.
  ///
  /// - Parameters:
  ///   - model: The class whose objects to delete.
  ///   - predicate: Which objects; all when `nil`.
  ///   - includeSubclasses: Whether objects of subclasses are deleted too.
  /// - Throws: ``ModelError`` when the predicate throws.
  /// - Complexity: O(n) in the objects of the classes visited.
  public func delete<T: PersistentModel>(
    model: T.Type, where predicate: Predicate<T>? = nil, includeSubclasses: Bool = true
  ) throws {
    var descriptor = FetchDescriptor<T>(predicate: predicate)
    descriptor.includesSubclasses = includeSubclasses
    // By key: a matching object nobody holds a handle to gets none (as in a cascade), so a
    // bulk delete makes no object per row; `deletedModelsArray` makes them if asked.
    for key in try matchingKeys(descriptor) {
      if let object = registeredObject(for: key) {
        if object._status == .inserted || object._status == .registered {
          session.deleteApplyingRulesCounting(key)
        }
      } else {
        session.deleteApplyingRulesCounting(key)
      }
    }
  }

  /// Unbinds an inserted object from the context; it becomes a deleted object.
  private func detach(_ model: ModelObject) {
    forget(model)
    model.bindRow(nil)
    model._status = .deleted
  }
}
