extension Session {
  /// Deletes the live object `key` and applies the delete rules of its class and, through
  /// cascades, of every object deleted with it: `.cascade` deletes the related objects,
  /// `.nullify` removes the object from their inverse, `.deny` is checked by ``validate()``,
  /// `.noAction` leaves the related objects pointing at the deleted one.
  ///
  /// - Returns: The keys deleted, `key` first; empty when `key` was not live.
  /// - Complexity: O(objects deleted × their relationships).
  @discardableResult
  public func deleteApplyingRules(_ key: ObjectKey) -> [ObjectKey] {
    guard deleteNotifying(key) else { return [] }
    return [key] + applyDeleteRules(from: key)
  }

  /// Applies the delete rules of the deleted object `key`, to what it is related to now in the
  /// working tables, and of every object its cascades delete. A rebase calls it again for a
  /// deletion whose object other sessions related to more objects meanwhile.
  ///
  /// - Returns: The keys the cascades deleted.
  @discardableResult
  func applyDeleteRules(from key: ObjectKey) -> [ObjectKey] {
    var deleted: [ObjectKey] = []
    var pending = [key]
    while let current = pending.popLast() {
      let entity = catalog.entities[Int(current.entity)]
      for (slot, relationship) in entity.relationships.enumerated() {
        let targets = relatedKeys(of: current, slot: slot).filter { contains($0) }
        guard !targets.isEmpty else { continue }
        switch relationship.deleteRule {
        case .cascade:
          for target in targets where deleteNotifying(target) {
            deleted.append(target)
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
    return deleted
  }

  private func deleteNotifying(_ key: ObjectKey) -> Bool {
    guard contains(key) else { return false }
    observer?.session(self, willDelete: key)
    delete(key)
    return true
  }
}
