import ModelGraphCore

extension ModelContext {
  /// After a class was registered: looks up again each entity that had an ancestor's class.
  ///
  /// Where a nearer class is now known, it makes that entity's handles from then on. A handle
  /// made before leaves the identity map, so a fetch typed as the new class never returns an
  /// ancestor's handle; it keeps reading its row until the row's object is deleted
  /// (``unbindSupersededHandles()``).
  /// - Complexity: O(entities looked up again), plus O(registered objects) of each entity whose
  ///   class changed.
  func refreshInexactClasses() {
    let entities = inexactClassEntities
    inexactClassEntities = []
    for entity in entities {
      let previous = classCache[entity]
      classCache[entity] = nil
      guard let now = modelClassIfAny(forEntity: entity), now != previous else { continue }
      // Reads through the working table report with the new class's key paths, which cover
      // its added slots (attached again on the next read).
      session.table(entity).attachment = nil
      guard registered.count(ofEntity: entity) > 0 else { continue }
      for row in registered.rows(ofEntity: entity) {
        guard let handle = registered.handle(entity: entity, row: row)?.takeUnretainedValue(),
          type(of: handle) != now
        else { continue }
        registered.remove(entity: entity, row: row)
        supersededHandles.append(SupersededHandle(object: handle))
      }
    }
  }

  /// Unbinds each handle that left the identity map for a nearer class's handle once its
  /// row no longer holds its object (deleted here or elsewhere), as the identity map's
  /// handles are; forgets the released ones.
  ///
  /// - Complexity: O(superseded handles); nothing when there are none.
  func unbindSupersededHandles() {
    guard !supersededHandles.isEmpty else { return }
    supersededHandles.removeAll { entry in
      guard let object = entry.object else { return true }
      guard object._status == .registered else { return false }
      if session.table(Int(object._key.entity)).contains(object._key) { return false }
      object.bindRow(nil, row: object._row)
      object._status = .deleted
      return true
    }
  }
}

/// A handle that left the identity map when its row's class became known (see
/// ``ModelContext/refreshInexactClasses()``), held weakly.
struct SupersededHandle {
  weak var object: ModelObject?
}
