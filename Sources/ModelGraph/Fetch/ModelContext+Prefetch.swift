import ModelGraphCore

extension ModelContext {
  /// Resolves the relationships `keyPaths` names for every object of `results` in one pass:
  /// the related objects are created (or found) once and kept by the context, per object and
  /// relationship, until the next prefetching fetch, so reading the relationships afterwards
  /// neither creates nor looks up objects (``PrefetchedRelations``).
  ///
  /// The slot of a relationship is found once per class met (results of a deep fetch come
  /// from several tables). A key path that names no relationship is ignored.
  /// - Complexity: O(results + related objects) per key path.
  func prefetch<T: PersistentModel>(
    _ keyPaths: [any PartialKeyPath<T> & Sendable], of results: [T]
  ) {
    let prefetched = PrefetchedRelations(version: session.base.number, epoch: relationshipEpoch)
    prefetched.lists.reserveCapacity(results.count * keyPaths.count)
    for keyPath in keyPaths {
      guard case .relationship(let name) = KeyPathResolution.property(keyPath) else { continue }
      resolve(named: name, of: results, into: prefetched)
    }
    self.prefetched = prefetched
  }

  /// Resolves relationship `name` of each of `owners` into `prefetched`.
  ///
  /// The slot of `name` is looked up once per class met, in an array indexed by entity.
  private func resolve(
    named name: String, of owners: [some ModelObject], into prefetched: PrefetchedRelations
  ) {
    // Per entity index: `unknown`, `absent`, or the slot.
    var slots: [Int] = []
    let unknown = -2
    let absent = -1
    for object in owners {
      guard let table = object._table else { continue }
      let entity = table.entity
      if entity.index >= slots.count {
        slots += Array(repeating: unknown, count: entity.index + 1 - slots.count)
      }
      if slots[entity.index] == unknown {
        slots[entity.index] = entity.relationshipSlot(named: name) ?? absent
      }
      let slot = slots[entity.index]
      guard slot != absent else { continue }
      let related = table.withRelatedKeys(row: object._row, slot: slot) { objects(for: $0) }
      prefetched.lists[PrefetchedRelations.Key(object: object._key, slot: slot)] = related
    }
  }
}
