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
  /// The deleted row's own lists are those of the newer version, without this session's
  /// changes (a dead row is not replayed): a target whose inverse no longer points at `key`
  /// (this session moved it away before deleting `key`) is not related to it now, and is left
  /// alone.
  /// - Returns: The keys the cascades deleted.
  @discardableResult
  func applyDeleteRules(from key: ObjectKey) -> [ObjectKey] {
    var deleted: [ObjectKey]? = []
    applyDeleteRules(from: key, recording: &deleted, reciprocatedFrom: key)
    return deleted ?? []
  }

  /// Applies the delete rules from the deleted object `key`, appending the keys the cascades
  /// delete to `deleted` when it is not `nil`.
  ///
  /// Works in the session's scratch arrays (taken for the call, so a nested call gets its own),
  /// and reads related keys in place: no allocation per object once the scratch has grown.
  /// - Returns: The number of objects the cascades deleted.
  @discardableResult
  /// - Parameter root: An object whose related keys are kept only where the target's inverse
  ///   points back at it.
  private func applyDeleteRules(
    from key: ObjectKey, recording deleted: inout [ObjectKey]?,
    reciprocatedFrom root: ObjectKey? = nil
  ) -> Int {
    var scratch = cascadeScratch
    cascadeScratch = CascadeScratch()
    defer {
      scratch.pending.removeAll(keepingCapacity: true)
      scratch.targets.removeAll(keepingCapacity: true)
      cascadeScratch = scratch
    }
    var count = 0
    scratch.pending.append(key)
    // Read once per call: the catalog's entities and, per deleted object, only its delete
    // rules (copying each relationship's description cost about 200 instructions a slot).
    var entities = catalog.entities
    while let current = scratch.pending.popLast() {
      // The catalog grows when a table of an entity registered since is first read.
      if Int(current.entity) >= entities.count {
        entities = catalog(covering: Int(current.entity)).entities
      }
      let rules = entities[Int(current.entity)].deleteRules
      let owner = table(Int(current.entity))
      for slot in rules.indices {
        let rule = rules[slot]
        if rule == .noAction { continue }
        // Copied out before any delete or write, which may move the related keys' storage.
        scratch.targets.removeAll(keepingCapacity: true)
        owner.withRelatedKeys(row: Int(current.row), slot: slot) { keys in
          for target in keys where contains(target) { scratch.targets.append(target) }
        }
        if current == root {
          scratch.targets.removeAll { !pointsBack($0, at: current, throughInverseOf: slot) }
        }
        guard !scratch.targets.isEmpty else { continue }
        switch rule {
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

  /// Whether the live `target` still points at `owner` through the inverse of `owner`'s
  /// relationship `slot` (`true` without an inverse: nothing tells otherwise).
  private func pointsBack(_ target: ObjectKey, at owner: ObjectKey, throughInverseOf slot: Int)
    -> Bool
  {
    guard let inverse = inverseSlot(ofSlot: slot, owner: owner, target: target) else {
      return true
    }
    var found = false
    table(Int(target.entity)).withRelatedKeys(row: Int(target.row), slot: inverse) { keys in
      found = keys.contains(owner)
    }
    return found
  }

  private func deleteNotifying(_ key: ObjectKey) -> Bool {
    guard contains(key) else { return false }
    graphEditsTold &+= 1
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
