extension Session {
  /// Makes the relationships of `owners` agree with their inverses again after a rebase merged
  /// this session's edits with other sessions' ones.
  ///
  /// A to-one relationship is the side that decides: an object whose to-one points at a target
  /// is added to the target's to-many inverse if missing, and an object listed in a to-many
  /// whose to-one inverse points elsewhere leaves the list. Many-to-many entries are added to
  /// the other side. References to objects that no longer live are removed.
  /// - Complexity: O(relationship entries of `owners` × their inverse sizes).
  func repairInverses(of owners: [ObjectKey]) {
    for owner in owners where contains(owner) {
      let entity = catalog.entities[Int(owner.entity)]
      for (slot, relationship) in entity.relationships.enumerated() {
        let related = relatedKeys(of: owner, slot: slot)
        let dead = related.filter { !contains($0) }
        if !dead.isEmpty { storeRelatedKeys(related.filter(contains), of: owner, slot: slot) }
        for target in related where contains(target) {
          guard let inverse = inverseSlot(ofSlot: slot, owner: owner, target: target) else {
            continue
          }
          let back = relatedKeys(of: target, slot: inverse)
          guard !back.contains(owner) else { continue }
          let inverseIsToMany = catalog.entities[Int(target.entity)].relationships[inverse]
            .isToMany
          switch (relationship.isToMany, inverseIsToMany) {
          case (true, false):
            removeRelated(target, from: owner, slot: slot)
          case (false, true), (true, true):
            storeRelatedKeys(back + [owner], of: target, slot: inverse)
          case (false, false):
            break
          }
        }
      }
    }
  }
}
