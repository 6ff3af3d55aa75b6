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
    var deleted: [ObjectKey]? = [key]
    applyDeleteRules(from: key, recording: &deleted)
    return deleted ?? []
  }

  /// Deletes the live object `key` as ``deleteApplyingRules(_:)`` does, without listing the
  /// keys deleted: a bulk delete allocates nothing per object.
  ///
  /// - Returns: The number of objects deleted, `key` included; 0 when `key` was not live.
  /// - Complexity: O(objects deleted × their relationships).
  @discardableResult
  public func deleteApplyingRulesCounting(_ key: ObjectKey) -> Int {
    guard deleteNotifying(key) else { return 0 }
    var none: [ObjectKey]?
    return 1 + applyDeleteRules(from: key, recording: &none)
  }

  /// Applies the delete rules of the deleted object `key`, to what it is related to now in the
  /// working tables, and of every object its cascades delete. A rebase calls it again for a
  /// deletion whose object other sessions related to more objects meanwhile.
  ///
  /// - Returns: The keys the cascades deleted.
  @discardableResult
  func applyDeleteRules(from key: ObjectKey) -> [ObjectKey] {
    var deleted: [ObjectKey]? = []
    applyDeleteRules(from: key, recording: &deleted)
    return deleted ?? []
  }

  /// Applies the delete rules from the deleted object `key`, appending the keys the cascades
  /// delete to `deleted` when it is not `nil`.
  ///
  /// Works in the session's scratch arrays (taken for the call, so a nested call gets its own),
  /// and reads related keys in place: no allocation per object once the scratch has grown.
  /// - Returns: The number of objects the cascades deleted.
  @discardableResult
  private func applyDeleteRules(from key: ObjectKey, recording deleted: inout [ObjectKey]?)
    -> Int
  {
    var scratch = cascadeScratch
    cascadeScratch = CascadeScratch()
    defer {
      scratch.pending.removeAll(keepingCapacity: true)
      scratch.targets.removeAll(keepingCapacity: true)
      cascadeScratch = scratch
    }
    var count = 0
    scratch.pending.append(key)
    while let current = scratch.pending.popLast() {
      let entity = catalog.entities[Int(current.entity)]
      let owner = table(Int(current.entity))
      for (slot, relationship) in entity.relationships.enumerated() {
        if relationship.deleteRule == .noAction { continue }
        // Copied out before any delete or write, which may move the related keys' storage.
        scratch.targets.removeAll(keepingCapacity: true)
        owner.withRelatedKeys(row: Int(current.row), slot: slot) { keys in
          for target in keys where contains(target) { scratch.targets.append(target) }
        }
        guard !scratch.targets.isEmpty else { continue }
        switch relationship.deleteRule {
        case .cascade:
          for target in scratch.targets where deleteNotifying(target) {
            deleted?.append(target)
            count += 1
            scratch.pending.append(target)
          }
        case .nullify:
          for target in scratch.targets {
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
    return count
  }

  private func deleteNotifying(_ key: ObjectKey) -> Bool {
    guard contains(key) else { return false }
    observer?.session(self, willDelete: key)
    delete(key)
    return true
  }
}

/// The work lists of a cascading delete, kept by the session between deletes so that their
/// storage is reused.
struct CascadeScratch {
  /// Deleted objects whose rules are still to apply.
  var pending: [ObjectKey] = []
  /// The live objects one relationship of the current object holds.
  var targets: [ObjectKey] = []
}
