extension Session {
  /// Moves the session onto the store's newest committed version (``Store/latestCommitted``),
  /// replaying its unsaved changes there as edits: attributes it wrote, to-many relationships
  /// as the objects it added and removed, to-one relationships as the object it set, deletions.
  ///
  /// Before anything changes, every ``Conflict`` with what other sessions published since the
  /// session's base version is found and handed to `resolve`. If any is rejected (or cannot
  /// be resolved as asked: a reference to an object deleted since whose delete rule toward it
  /// is `.deny`), this throws and the session stays as it was. Resolved conflicts replay as
  /// their ``ConflictResolution`` says; a reference to an object deleted since follows that
  /// object's delete rule toward the referring object (`.cascade` deletes the referring
  /// object, any other rule removes the reference), so the graph never points at a deleted
  /// object. To-one relationships and their inverses stay symmetric.
  /// - Returns: Whether there was a newer version.
  /// - Throws: ``ConflictError`` with the unresolved conflicts.
  @discardableResult
  public func rebaseOntoLatest(
    resolving resolve: (Conflict) -> ConflictResolution = { _ in .reject }
  ) throws(ConflictError) -> Bool {
    try rebase(onto: store.latestCommitted, resolving: resolve)
  }

  /// Moves the session onto `latest`, a committed version of this store no older than the
  /// session's base, as ``rebaseOntoLatest(resolving:)`` moves it onto the newest: for a
  /// reader that must see exactly the version something was read at.
  /// - Returns: Whether `latest` is newer than the session's base.
  /// - Throws: ``ConflictError`` with the unresolved conflicts.
  @discardableResult
  public func rebase(
    onto latest: StoreVersion,
    resolving resolve: (Conflict) -> ConflictResolution = { _ in .reject }
  ) throws(ConflictError) -> Bool {
    guard latest.number > base.number else { return false }
    var plan = ReplayPlan()
    var refused: [Conflict] = []
    let found = conflicts(onto: latest)
    // A conflict shows values of the newer version to `resolve` and to the caller: wait until
    // that version's save is durable first.
    if !found.isEmpty { store.waitUntilShown(latest.number) }
    for conflict in found {
      let resolution = resolve(conflict)
      let isNew = isInserted(entity: Int(conflict.key.entity), row: Int(conflict.key.row))
      guard resolution != .reject,
        plan.record(conflict, resolution, isNew: isNew, catalog: latest.catalog)
      else {
        refused.append(conflict)
        continue
      }
    }
    guard refused.isEmpty else { throw ConflictError(conflicts: refused) }
    if found.isEmpty && fastForward(onto: latest) { return true }
    replay(onto: latest, plan)
    return true
  }

  private func replay(onto latest: StoreVersion, _ plan: ReplayPlan) {
    var fixes: [InverseFix] = []
    var rebased: [Int: Table] = [:]
    var touched: [ObjectKey] = []
    // Rows of objects inserted and deleted again go back to the store: the rebased tables do
    // not hold them, so no change may name them afterwards.
    var discarded: [(entity: Int, row: Int, generation: UInt32)] = []
    for (entity, recorded) in changes where !recorded.isEmpty {
      let mine = working[entity]!
      var change = recorded
      change.inserted.removeAll { row in
        guard !mine.isAlive(row) else { return false }
        discarded.append((entity, row, mine.generation(of: row)))
        return true
      }
      let old = entity < base.tables.count ? base.tables[entity] : Table(entity: mine.entity)
      let current =
        entity < latest.tables.count ? latest.tables[entity] : Table(entity: mine.entity)
      var replay = TableReplay(
        mine: mine, old: old, target: current.copy(), base: base, latest: latest, plan: plan)
      let kept = replay.run(change)
      changes[entity] = kept
      fixes += replay.fixes
      touched += replay.relationshipOwners(kept)
      rebased[entity] = replay.target
    }
    if ownsRows {
      store.releaseUncommitted(discarded)
    } else {
      droppedTrialRows += discarded
    }
    base = latest
    extendWorkingTables()
    resetWorkingTables { rebased[$0] ?? self.base.tables[$0] }
    for fix in fixes { apply(fix) }
    // Before the repair, which drops references to objects that are gone: an object this
    // session touched that another save related to a deletion reapplied here still points
    // at it, so the deletion's rules reach it as they reach the untouched ones.
    for key in deletionsToReapply(plan) { applyDeleteRules(from: key) }
    repairInverses(of: touched)
    for key in plan.cascades { deleteApplyingRulesCounting(key) }
    absorbedForeignChanges = true
  }

  /// The deletions whose delete rules run again over what the objects are related to now:
  /// those others changed (``ReplayPlan/deletionsToReapply``) and, when a saved object's
  /// reference to an object deleted since was dropped, every deletion of this session. That
  /// object points where the store has it again, perhaps at an object this session deletes,
  /// whose rules did not reach it when it was deleted.
  private func deletionsToReapply(_ plan: ReplayPlan) -> [ObjectKey] {
    guard plan.keepsStoreReferences else { return plan.deletionsToReapply }
    var keys = plan.deletionsToReapply
    let known = Set(keys)
    for (entity, change) in changes {
      for (row, generation) in change.deleted {
        let key = ObjectKey(entity: entity, row: row, generation: generation)
        if !known.contains(key) { keys.append(key) }
      }
    }
    return keys
  }

  /// Removes `remove` from relationship `slot` of `owner` in the working tables.
  private func apply(_ fix: InverseFix) {
    guard contains(fix.owner) else { return }
    removeRelated(fix.remove, from: fix.owner, slot: fix.slot)
  }
}

/// How a rebase settles the conflicts it was allowed to resolve.
struct ReplayPlan {
  /// Attribute slots (and to-one slots) whose published value stays; every other conflicting
  /// slot takes this session's value.
  var storeWins = Set<SlotOfObject>()
  /// Objects of this session that point at an object deleted since whose rule is `.cascade`.
  var cascades: [ObjectKey] = []
  /// Objects this session deleted that others changed: their delete rules run again over
  /// what they are related to now.
  var deletionsToReapply: [ObjectKey] = []
  /// Whether a saved object of this session keeps the store's reference where this session
  /// pointed it at an object deleted since.
  var keepsStoreReferences = false

  /// An attribute or relationship of one object: the two kinds number their slots apart.
  struct SlotOfObject: Hashable {
    var key: ObjectKey
    var slot: Int
    var isRelationship: Bool
  }

  /// Notes how `conflict` is resolved.
  ///
  /// - Returns: `false` when the resolution cannot be carried out (a reference to an object
  ///   deleted since under a `.deny` rule).
  mutating func record(
    _ conflict: Conflict, _ resolution: ConflictResolution, isNew: Bool, catalog: SchemaCatalog
  ) -> Bool {
    switch conflict.kind {
    case .attribute(let slot):
      if resolution == .keepStore {
        storeWins.insert(SlotOfObject(key: conflict.key, slot: slot, isRelationship: false))
      }
    case .relationship(let slot):
      if resolution == .keepStore {
        storeWins.insert(SlotOfObject(key: conflict.key, slot: slot, isRelationship: true))
      }
    case .changedDeletedObject:
      break
    case .referencesDeletedObject(let slot, let target):
      // A saved object keeps the relationship the store has; a new one meets the deleted
      // object's rule, as it would have had it been saved first.
      guard isNew else {
        keepsStoreReferences = true
        break
      }
      switch catalog.deleteRule(toward: conflict.key, from: target, slot: slot) {
      case .cascade: cascades.append(conflict.key)
      case .deny: return false
      default: break
      }
    case .deletedChangedObject:
      deletionsToReapply.append(conflict.key)
    }
    return true
  }
}

extension SchemaCatalog {
  /// The delete rule that `target`'s deletion applies to `owner`, which points at it through
  /// relationship `slot`: the rule of the inverse relationship, `.nullify` without one.
  func deleteRule(toward owner: ObjectKey, from target: ObjectKey, slot: Int) -> DeleteRule {
    guard
      let inverse = inverseSlot(of: slot, in: Int(owner.entity), target: Int(target.entity))
    else { return .nullify }
    return entities[Int(target.entity)].relationships[inverse].deleteRule
  }
}

/// The replay of one entity's changes onto `target`, a copy of the latest version's table.
struct TableReplay {
  let mine: Table
  let old: Table
  let target: Table
  let base: StoreVersion
  let latest: StoreVersion
  let plan: ReplayPlan
  /// Inverse entries to remove once every table is replayed.
  var fixes: [InverseFix] = []

  private var entity: ResolvedEntity { mine.entity }

  /// Replays `change`; returns it without the parts that no longer apply.
  mutating func run(_ change: TableChanges) -> TableChanges {
    var kept = change
    for row in change.inserted where mine.isAlive(row) {
      target.activate(row: row, generation: mine.generation(of: row))
      target.copyRow(row, from: mine)
      dropDeletedTargets(row: row)
    }
    for (row, slots) in change.updated {
      guard sameObject(row) else {
        kept.updated[row] = nil
        continue
      }
      var written = slots
      for slot in slots.slots(below: entity.attributes.count)
      where plan.storeWins.contains(.init(key: key(row), slot: slot, isRelationship: false)) {
        written.remove(slot)
      }
      target.copyAttributes(written, row: row, from: mine)
      kept.updated[row] = written.isEmpty ? nil : written
    }
    for row in change.relationshipsUpdated {
      guard sameObject(row) else {
        kept.relationshipsUpdated.remove(row)
        continue
      }
      replayRelationships(row: row)
    }
    kept.deleted = DeletedRows()
    for (row, generation) in change.deleted where target.stamps.count > row {
      guard target.stamps[row] == generation << 1 | 1 else { continue }
      target.stamps[row] = generation << 1
      target.liveCount -= 1
      kept.deleted.append(row: row, generation: generation)
    }
    return kept
  }

  private func key(_ row: Int) -> ObjectKey {
    ObjectKey(entity: entity.index, row: row, generation: mine.generation(of: row))
  }

  /// The objects whose relationships the replayed `change` wrote.
  func relationshipOwners(_ change: TableChanges) -> [ObjectKey] {
    let inserted = entity.relationships.isEmpty ? [] : change.inserted.filter(target.isAlive)
    return (inserted + change.relationshipsUpdated).map(key)
  }

  /// Whether `row` holds the same live object in the session and in the latest version.
  private func sameObject(_ row: Int) -> Bool {
    mine.isAlive(row) && target.isAlive(row)
      && target.generation(of: row) == mine.generation(of: row)
  }

  private func isDeletedSince(_ key: ObjectKey) -> Bool {
    base.isDeletedSince(key, in: latest)
  }

  /// Removes references to objects deleted since from every relationship of `row`.
  private func dropDeletedTargets(row: Int) {
    for slot in entity.relationships.indices {
      let keys = target.relatedKeys(row: row, slot: slot)
      guard keys.contains(where: isDeletedSince) else { continue }
      target.setRelatedKeys(keys.filter { !isDeletedSince($0) }, row: row, slot: slot)
    }
  }

  /// Replays the relationship edits of a saved object: a to-many as this session's list when
  /// the latest version still has the base's, otherwise as additions and removals (the other
  /// members keep the latest version's order, additions go last); a to-one as a set, settled
  /// by the plan where both sides set it.
  private mutating func replayRelationships(row: Int) {
    let owner = key(row)
    let known = old.contains(owner)
    for (slot, relationship) in entity.relationships.enumerated() {
      let before = known ? old.relatedKeys(row: row, slot: slot) : []
      let after = mine.relatedKeys(row: row, slot: slot)
      guard before != after else { continue }
      let now = target.relatedKeys(row: row, slot: slot)
      if relationship.isToMany && now == before {
        // Nobody else changed the list: it is this session's, in its order (a reorder, or a
        // member removed and added again, is no addition or removal to merge).
        let merged = after.filter { !isDeletedSince($0) }
        if merged != now { target.setRelatedKeys(merged, row: row, slot: slot) }
        continue
      }
      if relationship.isToMany {
        let removed = Set(before).subtracting(after)
        let beforeSet = Set(before)
        var merged = now.filter { !removed.contains($0) }
        var present = Set(merged)
        for key in after where !beforeSet.contains(key) && !isDeletedSince(key) {
          if present.insert(key).inserted { merged.append(key) }
        }
        if merged != now { target.setRelatedKeys(merged, row: row, slot: slot) }
        continue
      }
      if let chosen = after.first, isDeletedSince(chosen) {
        // The object this session chose is gone: the store's target stays.
        continue
      }
      let mineTarget = after.first
      let theirs = now.first
      let collided = now != before && now != after
      if collided && plan.storeWins.contains(.init(key: owner, slot: slot, isRelationship: true)) {
        // The published target stays; the one this session chose gives the owner back.
        if let mineTarget, mineTarget != theirs { fix(mineTarget, inverseOf: slot, remove: owner) }
        continue
      }
      target.setRelatedKey(mineTarget, row: row, slot: slot)
      if let theirs, theirs != before.first, theirs != mineTarget {
        fix(theirs, inverseOf: slot, remove: owner)
      }
    }
  }

  private mutating func fix(_ holder: ObjectKey, inverseOf slot: Int, remove owner: ObjectKey) {
    guard
      let inverse = latest.catalog.inverseSlot(
        of: slot, in: entity.index, target: Int(holder.entity))
    else { return }
    fixes.append(InverseFix(owner: holder, slot: inverse, remove: owner))
  }
}
