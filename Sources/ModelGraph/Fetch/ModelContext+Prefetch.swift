import ModelGraphCore

extension ModelContext {
  /// Resolves the relationships `keyPaths` names for every object of `results` in one pass:
  /// the related objects are created (or found) once and kept by the context until the next
  /// prefetching fetch, so reading the relationships creates no objects.
  ///
  /// Per relationship, the keys every result holds are gathered from the tables' relationship
  /// columns in one pass (the relationship's slot found once per class), then resolved in one
  /// batch (``objects(for:)``). A key path that names no relationship is ignored.
  /// - Complexity: O(results + related objects) per key path.
  func prefetch<T: PersistentModel>(
    _ keyPaths: [any PartialKeyPath<T> & Sendable], of results: [T]
  ) {
    var related: [ModelObject] = []
    for keyPath in keyPaths {
      guard case .relationship(let name) = KeyPathResolution.property(keyPath) else { continue }
      related += objects(for: relatedKeys(named: name, of: results))
    }
    prefetchedObjects = related
  }

  /// The keys relationship `name` holds for each of `objects`, in order.
  ///
  /// The slot of `name` is looked up once per class met (results of a deep fetch come from
  /// several tables), in an array indexed by entity.
  private func relatedKeys(named name: String, of objects: [some ModelObject]) -> [ObjectKey] {
    var keys: [ObjectKey] = []
    keys.reserveCapacity(objects.count)
    // Per entity index: `unknown`, `absent`, or the slot.
    var slots: [Int] = []
    let unknown = -2
    let absent = -1
    for object in objects {
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
      table.withRelatedKeys(row: object._row, slot: slot) { keys.append(contentsOf: $0) }
    }
    return keys
  }
}
