import ModelGraphCore

extension ModelContext {
  /// Under ``UniquenessPolicy/upsert``: merges each new object whose unique attribute or unique
  /// constraint matches a saved object into that object (see ``UniquenessPolicy/upsert``).
  func mergeDuplicateInserts() {
    let catalog = session.catalog
    for change in session.changeSet where !change.insertedRows.isEmpty {
      let entity = catalog.entities[change.entity]
      for rule in session.uniqueRules(of: entity) {
        let table = session.table(change.entity)
        let keys = change.insertedRows.filter { table.isAlive($0) }.map {
          ObjectKey(entity: change.entity, row: $0, generation: table.generation(of: $0))
        }
        let matches = session.uniqueMatches(for: rule, candidates: keys, excluded: Set(keys))
        for (key, match) in zip(keys, matches) {
          guard let match, session.contains(key), session.contains(match) else { continue }
          guard match.entity == key.entity else { continue }  // another class: reported on save
          merge(key, into: match)
        }
      }
    }
  }

  /// Copies what the new object `source` set into the saved object `target`, drops `source`'s
  /// row, and makes `source`'s instance stand for `target` when the context has none.
  private func merge(_ source: ObjectKey, into target: ObjectKey) {
    let entity = session.catalog.entities[Int(source.entity)]
    let table = session.table(Int(source.entity))
    let unset = session.unsetAttributes(of: source)
    let targetInstance = registeredObject(for: target)
    for slot in entity.attributes.indices where !unset.contains(slot) {
      session.copyAttribute(slot: slot, from: source, to: target)
      if let targetInstance { observationDidWrite(targetInstance, attributeSlot: slot) }
    }
    for slot in entity.relationships.indices {
      let related = relatedKeys(of: source, slot: slot)
      guard !related.isEmpty else { continue }
      setRelationship(of: source, slot: slot, to: [])
      setRelationship(of: target, slot: slot, to: related)
    }
    let instance = registeredObject(for: source)
    session.delete(source)
    guard let instance else { return }
    // The instance leaves its row (to stand for `target`, or for nothing).
    observationDidRevert(instance)
    forget(instance)
    if registeredObject(for: target) == nil {
      instance._key = target
      instance.bindRow(table)
      instance._status = .registered
      register(instance)
    } else {
      instance.bindRow(nil)
      instance._status = .deleted
    }
  }
}
