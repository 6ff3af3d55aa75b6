extension Session {
  /// Every change of this session that collides with what was published between its base
  /// version and `latest`, in entity and row order.
  ///
  /// An attribute that both wrote is a conflict even when the values agree (two increments of
  /// one counter agree and would lose one). Changes that commute are not conflicts: different
  /// attributes of one object, different objects added to or removed from one to-many
  /// relationship, a to-one set to the same object, the removal of a relationship entry from an object deleted since, and the
  /// deletion of an object deleted since.
  /// - Complexity: O(changes × the attributes and relationships of the changed rows).
  public func conflicts(onto latest: StoreVersion) -> [Conflict] {
    guard latest.number != base.number else { return [] }
    var found: [Conflict] = []
    for entity in changes.keys.sorted() {
      guard let change = changes[entity], !change.isEmpty, let mine = working[entity] else {
        continue
      }
      let old = entity < base.tables.count ? base.tables[entity] : Table(entity: mine.entity)
      let now = entity < latest.tables.count ? latest.tables[entity] : Table(entity: mine.entity)
      let scan = ConflictScan(mine: mine, old: old, now: now, base: base, latest: latest)
      found += scan.insertedConflicts(change)
      found += scan.updateConflicts(change)
      found += scan.deletionConflicts(change)
    }
    return found
  }
}

/// The conflict checks of one entity's changes: `mine` is the session's working table, `old`
/// the table of its base version, `now` the table of the latest version.
struct ConflictScan {
  let mine: Table
  let old: Table
  let now: Table
  let base: StoreVersion
  let latest: StoreVersion

  private var entity: ResolvedEntity { mine.entity }

  private func key(_ row: Int) -> ObjectKey {
    ObjectKey(entity: entity.index, row: row, generation: mine.generation(of: row))
  }

  /// New objects that point at objects deleted since.
  func insertedConflicts(_ change: TableChanges) -> [Conflict] {
    var found: [Conflict] = []
    for row in change.inserted where mine.isAlive(row) {
      for slot in entity.relationships.indices {
        for target in mine.relatedKeys(row: row, slot: slot)
        where base.isDeletedSince(target, in: latest) {
          found.append(
            Conflict(.referencesDeletedObject(slot: slot, target: target), key: key(row)))
        }
      }
    }
    return found
  }

  /// Attribute and relationship writes to saved objects: written on both sides, or written
  /// here to an object deleted since, or pointing at an object deleted since.
  func updateConflicts(_ change: TableChanges) -> [Conflict] {
    var found: [Conflict] = []
    var reportedDeleted = Set<Int>()
    for (row, slots) in change.updated.sorted(by: { $0.key < $1.key }) where mine.isAlive(row) {
      let owner = key(row)
      guard now.contains(owner) else {
        found.append(Conflict(.changedDeletedObject, key: owner))
        reportedDeleted.insert(row)
        continue
      }
      for slot in slots.slots(below: entity.attributes.count) {
        let mineColumn = mine.attributeColumns[slot]
        let nowColumn = now.attributeColumns[slot]
        // Written on both sides is a conflict even when the values agree: two increments
        // from the same value agree, and one of them would be lost.
        guard !old.attributeColumns[slot].hasSameValue(at: row, as: nowColumn) else { continue }
        found.append(
          Conflict(
            .attribute(slot: slot), key: owner, mine: mineColumn.value(at: row),
            theirs: nowColumn.value(at: row)))
      }
    }
    for row in change.relationshipsUpdated.sorted() where mine.isAlive(row) {
      let owner = key(row)
      let ownerGone = !now.contains(owner)
      for slot in entity.relationships.indices {
        let before = old.contains(owner) ? old.relatedKeys(row: row, slot: slot) : []
        let after = mine.relatedKeys(row: row, slot: slot)
        guard before != after else { continue }
        let added = after.filter { !before.contains($0) }
        if ownerGone {
          // Removing entries from an object deleted since agrees with its deletion.
          if !added.isEmpty && reportedDeleted.insert(row).inserted {
            found.append(Conflict(.changedDeletedObject, key: owner))
          }
          continue
        }
        for target in added where base.isDeletedSince(target, in: latest) {
          found.append(Conflict(.referencesDeletedObject(slot: slot, target: target), key: owner))
        }
        guard !entity.relationships[slot].isToMany else { continue }
        let current = now.relatedKeys(row: row, slot: slot)
        if current != before && current != after {
          found.append(
            Conflict(
              .relationship(slot: slot), key: owner, myTarget: after.first,
              theirTarget: current.first))
        }
      }
    }
    return found
  }

  /// Objects deleted here that another session changed since (a value or a relationship).
  func deletionConflicts(_ change: TableChanges) -> [Conflict] {
    var found: [Conflict] = []
    for (row, generation) in change.deleted.sortedByRow() {
      let owner = ObjectKey(entity: entity.index, row: row, generation: generation)
      guard now.contains(owner), old.contains(owner) else { continue }
      let attributesChanged = old.attributeColumns.indices.contains {
        !old.attributeColumns[$0].hasSameValue(at: row, as: now.attributeColumns[$0])
      }
      let relationshipsChanged = old.relationshipColumns.indices.contains {
        !old.relationshipColumns[$0].hasSameValue(at: row, as: now.relationshipColumns[$0])
      }
      if attributesChanged || relationshipsChanged {
        found.append(Conflict(.deletedChangedObject, key: owner))
      }
    }
    return found
  }
}

extension StoreVersion {
  /// Whether `key` names an object of this version that `later` no longer holds.
  func isDeletedSince(_ key: ObjectKey, in later: StoreVersion) -> Bool {
    let entity = Int(key.entity)
    guard entity < tables.count, tables[entity].contains(key) else { return false }
    return entity >= later.tables.count || !later.tables[entity].contains(key)
  }
}
