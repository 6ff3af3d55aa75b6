import ModelGraphCore

extension ModelContext {
  /// Resolves the relationships `keyPaths` names for every object of `results` in one pass:
  /// the related objects are created (or found) once and kept by the context, per object and
  /// relationship, until the next prefetching fetch, so reading the relationships afterwards
  /// neither creates nor looks up objects (``PrefetchedRelations``).
  ///
  /// The slots of the relationships are found once per class met (results of a deep fetch
  /// come from several tables); the related keys of all owners are turned into objects by one
  /// ``RelatedObjectResolver``, so each entity's table and class are looked up once per run of
  /// keys, not once per owner. A key path that names no relationship is ignored.
  /// - Complexity: O(results + related objects) per key path.
  func prefetch<T: PersistentModel>(
    _ keyPaths: [any PartialKeyPath<T> & Sendable], of results: [T]
  ) {
    let names = keyPaths.compactMap { keyPath -> String? in
      guard case .relationship(let name) = KeyPathResolution.property(keyPath) else { return nil }
      return name
    }
    // Per entity index: the slot of each name, or -1 where the entity has no such relationship.
    var slotsByEntity: [[Int]?] = []
    var stride = 0
    var owners: [ObjectKey] = []
    owners.reserveCapacity(results.count)
    for object in results {
      guard let table = object._table else { continue }
      let entity = table.entity
      if entity.index >= slotsByEntity.count {
        slotsByEntity += Array(repeating: nil, count: entity.index + 1 - slotsByEntity.count)
      }
      if slotsByEntity[entity.index] == nil {
        let slots = names.map { entity.relationshipSlot(named: $0) ?? -1 }
        stride = Swift.max(stride, (slots.max() ?? -1) + 1)
        slotsByEntity[entity.index] = slots
      }
      object._prefetchIndex = Int32(truncatingIfNeeded: owners.count)
      owners.append(object._key)
    }
    let prefetched = PrefetchedRelations(
      version: session.base.number, epoch: relationshipEpoch, owners: owners, stride: stride)
    for (position, _) in names.enumerated() {
      var resolver = RelatedObjectResolver()
      var index = 0
      for object in results {
        guard let table = object._table else { continue }
        defer { index += 1 }
        let slot = slotsByEntity[table.entity.index]![position]
        guard slot >= 0 else { continue }
        prefetched.lists[index * stride + slot] = table.withRelatedKeys(
          row: object._row, slot: slot
        ) { keys in
          var related: [ModelObject] = []
          related.reserveCapacity(keys.count)
          for key in keys {
            if let found = resolver.object(for: key, in: self) { related.append(found) }
          }
          return related
        }
      }
    }
    self.prefetched = prefetched
  }
}
