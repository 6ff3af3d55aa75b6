extension Session {
  /// The keys relationship `slot` of the object `key` holds, in order (dead ones included).
  public func relatedKeys(of key: ObjectKey, slot: Int) -> [ObjectKey] {
    table(Int(key.entity)).relatedKeys(row: Int(key.row), slot: slot)
  }

  /// The slot, in the object `target`'s class, of the inverse of relationship `slot` of `owner`.
  public func inverseSlot(ofSlot slot: Int, owner: ObjectKey, target: ObjectKey) -> Int? {
    catalog(covering: Int(max(owner.entity, target.entity))).inverseSlot(
      of: slot, in: Int(owner.entity), target: Int(target.entity))
  }

  /// Points relationship `slot` of `owner` at `keys` (duplicates dropped, order kept) and keeps
  /// every inverse in step: objects removed lose `owner`, objects added gain it (and leave the
  /// to-one they had before).
  ///
  /// - Complexity: O(old + new) related objects, times their inverse sizes.
  public func setRelationship(of owner: ObjectKey, slot: Int, to newKeys: [ObjectKey]) {
    var seen = Set<ObjectKey>()
    let keys = newKeys.filter { seen.insert($0).inserted }
    let old = relatedKeys(of: owner, slot: slot)
    storeRelatedKeys(keys, of: owner, slot: slot)
    let oldSet = Set(old)
    for removed in old where !seen.contains(removed) && holds(removed) {
      if let inverse = inverseSlot(ofSlot: slot, owner: owner, target: removed) {
        removeRelated(owner, from: removed, slot: inverse)
      }
    }
    for added in keys where !oldSet.contains(added) {
      guard let inverse = inverseSlot(ofSlot: slot, owner: owner, target: added) else { continue }
      if catalog.entities[Int(added.entity)].relationships[inverse].isToMany {
        let current = relatedKeys(of: added, slot: inverse)
        if !current.contains(owner) {
          storeRelatedKeys(current + [owner], of: added, slot: inverse)
        }
      } else {
        let previous = relatedKeys(of: added, slot: inverse).first
        guard previous != owner else { continue }
        if let previous, holds(previous),
          let back = inverseSlot(ofSlot: inverse, owner: added, target: previous)
        {
          removeRelated(added, from: previous, slot: back)
        }
        storeRelatedKeys([owner], of: added, slot: inverse)
      }
    }
  }

  /// Removes `key` from relationship `slot` of `owner`, without touching inverses.
  public func removeRelated(_ key: ObjectKey, from owner: ObjectKey, slot: Int) {
    let current = relatedKeys(of: owner, slot: slot)
    guard current.contains(key) else { return }
    storeRelatedKeys(current.filter { $0 != key }, of: owner, slot: slot)
  }

  /// Stores `keys` in relationship `slot` of the object `key`, without touching inverses.
  public func storeRelatedKeys(_ keys: [ObjectKey], of key: ObjectKey, slot: Int) {
    table(Int(key.entity)).setRelatedKeys(keys, row: Int(key.row), slot: slot)
    noteRelationshipWrite(entity: Int(key.entity), row: Int(key.row))
    observer?.session(self, didWriteRelationship: slot, of: key)
  }
}
