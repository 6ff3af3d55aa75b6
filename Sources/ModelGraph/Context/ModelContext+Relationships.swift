extension ModelContext {
  /// The keys relationship `slot` of the object `key` holds, in order (dead ones included).
  func relatedKeys(of key: ObjectKey, slot: Int) -> [ObjectKey] {
    session.table(Int(key.entity)).relatedKeys(row: Int(key.row), slot: slot)
  }

  /// Stores `keys` in relationship `slot` of the object `key`, without touching inverses.
  func storeRelatedKeys(_ keys: [ObjectKey], of key: ObjectKey, slot: Int) {
    session.table(Int(key.entity)).setRelatedKeys(keys, row: Int(key.row), slot: slot)
    if let object = registeredObject(for: key) {
      noteWrite(object, relationshipSlot: slot)
    } else {
      session.noteRelationshipWrite(entity: Int(key.entity), row: Int(key.row))
    }
  }

  /// The slot, in the object `target`'s class, of the inverse of relationship `slot` of `owner`.
  func inverseSlot(ofSlot slot: Int, owner: ObjectKey, target: ObjectKey) -> Int? {
    session.catalog(covering: Int(max(owner.entity, target.entity))).inverseSlot(
      of: slot, in: Int(owner.entity), target: Int(target.entity))
  }

  /// Points relationship `slot` of `owner` at `keys` and keeps every inverse in step: objects
  /// removed lose `owner`, objects added gain it (and leave the to-one they had before).
  ///
  /// - Complexity: O(old + new) related objects, times their inverse sizes.
  func setRelationship(of owner: ObjectKey, slot: Int, to newKeys: [ObjectKey]) {
    var seen = Set<ObjectKey>()
    let keys = newKeys.filter { seen.insert($0).inserted }
    let old = relatedKeys(of: owner, slot: slot)
    storeRelatedKeys(keys, of: owner, slot: slot)
    let oldSet = Set(old)
    for removed in old where !seen.contains(removed) && session.holds(removed) {
      if let inverse = inverseSlot(ofSlot: slot, owner: owner, target: removed) {
        removeRelated(owner, from: removed, slot: inverse)
      }
    }
    for added in keys where !oldSet.contains(added) {
      guard let inverse = inverseSlot(ofSlot: slot, owner: owner, target: added) else { continue }
      let entity = session.catalog.entities[Int(added.entity)]
      if entity.relationships[inverse].isToMany {
        let current = relatedKeys(of: added, slot: inverse)
        if !current.contains(owner) {
          storeRelatedKeys(current + [owner], of: added, slot: inverse)
        }
      } else {
        let previous = relatedKeys(of: added, slot: inverse).first
        guard previous != owner else { continue }
        if let previous, session.holds(previous),
          let back = inverseSlot(ofSlot: inverse, owner: added, target: previous)
        {
          removeRelated(added, from: previous, slot: back)
        }
        storeRelatedKeys([owner], of: added, slot: inverse)
      }
    }
  }

  /// Removes `key` from relationship `slot` of `owner`, without touching inverses.
  func removeRelated(_ key: ObjectKey, from owner: ObjectKey, slot: Int) {
    let current = relatedKeys(of: owner, slot: slot)
    guard current.contains(key) else { return }
    storeRelatedKeys(current.filter { $0 != key }, of: owner, slot: slot)
  }

  /// Applies the delete rules of the object `key` (just deleted) and, through cascades, of
  /// every object deleted with it.
  func applyDeleteRules(startingAt key: ObjectKey) {
    var pending = [key]
    while let current = pending.popLast() {
      let entity = session.catalog.entities[Int(current.entity)]
      for (slot, relationship) in entity.relationships.enumerated() {
        let targets = relatedKeys(of: current, slot: slot).filter { session.contains($0) }
        guard !targets.isEmpty else { continue }
        switch relationship.deleteRule {
        case .cascade:
          for target in targets where session.contains(target) {
            deleteKey(target)
            pending.append(target)
          }
        case .nullify:
          for target in targets {
            if let inverse = inverseSlot(ofSlot: slot, owner: current, target: target) {
              removeRelated(current, from: target, slot: inverse)
            }
          }
        case .deny:
          denyChecks.append((current, slot))
        case .noAction:
          break
        }
      }
    }
  }
}
