extension Session {
  /// The keys relationship `slot` of the object `key` holds, in order (dead ones included).
  public func relatedKeys(of key: ObjectKey, slot: Int) -> [ObjectKey] {
    table(Int(key.entity)).relatedKeys(row: Int(key.row), slot: slot)
  }

  /// The slot, in the object `target`'s class, of the inverse of relationship `slot` of `owner`.
  ///
  /// - Complexity: O(1) after the first call for the same classes and slot.
  public func inverseSlot(ofSlot slot: Int, owner: ObjectKey, target: ObjectKey) -> Int? {
    let cacheKey = Int(owner.entity) << 40 | slot << 20 | Int(target.entity)
    if let recent = recentInverseSlots.slot(for: cacheKey) { return recent < 0 ? nil : recent }
    let cached: Int
    if let known = inverseSlots[cacheKey] {
      cached = known
    } else {
      cached =
        catalog(covering: Int(max(owner.entity, target.entity))).inverseSlot(
          of: slot, in: Int(owner.entity), target: Int(target.entity)) ?? -1
      inverseSlots[cacheKey] = cached
    }
    recentInverseSlots.remember(cached, for: cacheKey)
    return cached < 0 ? nil : cached
  }

  /// Points relationship `slot` of `owner` at `keys` (duplicates dropped, order kept) and keeps
  /// every inverse in step: objects removed lose `owner`, objects added gain it (and leave the
  /// to-one they had before).
  ///
  /// - Complexity: O(old + new) related objects, times their inverse sizes.
  public func setRelationship(of owner: ObjectKey, slot: Int, to newKeys: [ObjectKey]) {
    let keys = Self.withoutDuplicates(newKeys)
    let old = relatedKeys(of: owner, slot: slot)
    storeRelatedKeys(keys, of: owner, slot: slot)
    let newSet = Self.membership(keys)
    let oldSet = Self.membership(old)
    for removed in old where !newSet.contains(removed) && holds(removed) {
      if let inverse = inverseSlot(ofSlot: slot, owner: owner, target: removed) {
        removeRelated(owner, from: removed, slot: inverse)
      }
    }
    for added in keys where !oldSet.contains(added) {
      guard let inverse = inverseSlot(ofSlot: slot, owner: owner, target: added) else { continue }
      if catalog.entities[Int(added.entity)].relationships[inverse].isToMany {
        if !table(Int(added.entity)).holdsRelatedKey(owner, row: Int(added.row), slot: inverse) {
          storeRelatedKeys(of: added, slot: inverse) {
            $0.appendRelatedKey(owner, row: $1, slot: $2)
          }
        }
      } else {
        let previous = table(Int(added.entity)).relatedKey(row: Int(added.row), slot: inverse)
        guard previous != owner else { continue }
        if let previous, holds(previous),
          let back = inverseSlot(ofSlot: inverse, owner: added, target: previous)
        {
          removeRelated(added, from: previous, slot: back)
        }
        storeRelatedKey(owner, of: added, slot: inverse)
      }
    }
  }

  /// Removes `key` from relationship `slot` of `owner`, without touching inverses.
  public func removeRelated(_ key: ObjectKey, from owner: ObjectKey, slot: Int) {
    let current = relatedKeys(of: owner, slot: slot)
    guard current.contains(key) else { return }
    storeRelatedKeys(current.filter { $0 != key }, of: owner, slot: slot)
  }

  /// Stores `target` in the to-one relationship `slot` of the object `key`, without touching
  /// inverses.
  public func storeRelatedKey(_ target: ObjectKey?, of key: ObjectKey, slot: Int) {
    storeRelatedKeys(of: key, slot: slot) { $0.setRelatedKey(target, row: $1, slot: $2) }
  }

  /// Stores `keys` in relationship `slot` of the object `key`, without touching inverses.
  public func storeRelatedKeys(_ keys: [ObjectKey], of key: ObjectKey, slot: Int) {
    storeRelatedKeys(of: key, slot: slot) { $0.setRelatedKeys(keys, row: $1, slot: $2) }
  }

  /// Changes relationship `slot` of the object `key` by `write(table, row, slot)`, without
  /// touching inverses, and records the write (the change set and the observer).
  private func storeRelatedKeys(
    of key: ObjectKey, slot: Int, _ write: (Table, Int, Int) -> Void
  ) {
    write(table(Int(key.entity)), Int(key.row), slot)
    noteRelationshipWrite(entity: Int(key.entity), row: Int(key.row))
    graphEditsTold &+= 1
    observer?.session(self, didWriteRelationship: slot, of: key)
  }

  /// `keys` with later duplicates dropped, in order; small lists without hashing.
  private static func withoutDuplicates(_ keys: [ObjectKey]) -> [ObjectKey] {
    if keys.count <= 8 {
      for index in keys.indices.dropFirst() where keys[..<index].contains(keys[index]) {
        var result: [ObjectKey] = []
        for key in keys where !result.contains(key) { result.append(key) }
        return result
      }
      return keys
    }
    var seen = Set<ObjectKey>()
    return keys.filter { seen.insert($0).inserted }
  }

  /// A membership test over `keys`: a linear search for small lists, a set for larger ones.
  private static func membership(_ keys: [ObjectKey]) -> KeyMembership {
    keys.count <= 8 ? .list(keys) : .set(Set(keys))
  }
}

/// Membership in a list of keys, hashed only when the list is long.
private enum KeyMembership {
  case list([ObjectKey])
  case set(Set<ObjectKey>)

  func contains(_ key: ObjectKey) -> Bool {
    switch self {
    case .list(let keys): keys.contains(key)
    case .set(let keys): keys.contains(key)
    }
  }
}
