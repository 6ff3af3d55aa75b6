import ModelGraphCore

extension ModelContext {
  /// Resolves the relationships `keyPaths` names for every object of `results` in one pass:
  /// the related objects are created (or found) once and kept by the context until the next
  /// prefetching fetch, so reading the relationships creates no objects.
  ///
  /// A key path that names no relationship is ignored.
  /// - Complexity: O(related objects).
  func prefetch<T: PersistentModel>(
    _ keyPaths: [any PartialKeyPath<T> & Sendable], of results: [T]
  ) {
    var related: [ModelObject] = []
    for keyPath in keyPaths {
      guard case .relationship(let name) = KeyPathResolution.property(keyPath) else { continue }
      var keys: [ObjectKey] = []
      var slots: [Int: Int?] = [:]
      for object in results {
        guard let table = object._table else { continue }
        let entity = table.entity
        let slot = slots[entity.index] ?? entity.relationshipSlot(named: name)
        slots[entity.index] = slot
        guard let slot else { continue }
        object.appendRelationshipKeys(in: table, slot: slot, to: &keys)
      }
      related += objects(for: keys)
    }
    prefetchedObjects = related
  }
}
