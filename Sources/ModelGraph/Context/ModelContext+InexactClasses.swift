import ModelGraphCore

extension ModelContext {
  /// Looks up the entities whose handles stand in with an ancestor's class again when a class
  /// was registered since the last look-up, here or in another context.
  ///
  /// - Complexity: O(1) when no entity has an ancestor's class (a test of one array).
  @inline(__always)
  func checkInexactClasses() {
    if !inexactClassEntities.isEmpty { refreshInexactClassesIfRegistered() }
  }

  private func refreshInexactClassesIfRegistered() {
    let registrations = container.classRegistrations.load(ordering: .acquiring)
    guard registrations != seenClassRegistrations else { return }
    seenClassRegistrations = registrations
    refreshInexactClasses()
  }

  /// Looks up again each entity that had an ancestor's class (after a class was registered).
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
        observationDidSupersede(handle)
        // Related objects resolved before may name the handle: resolve them again.
        relationshipEpoch &+= 1
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
      object.bindRow(nil)
      object._status = .deleted
      return true
    }
  }
}

extension ModelContext {
  /// Moves each handle that left the identity map for `key`'s object to its deleted state, as
  /// the handle in the map is when the session deletes the object (``deletedModelsArray``,
  /// a save and a rollback find it among ``supersededHandles``).
  ///
  /// - Complexity: O(superseded handles); nothing when there are none.
  func supersededHandlesWillBeDeleted(_ key: ObjectKey) {
    guard !supersededHandles.isEmpty else { return }
    for entry in supersededHandles {
      guard let object = entry.object, object._status == .registered, object._key == key
      else { continue }
      object._status = .pendingDeletion
      object.bindRow(nil)
    }
  }
}

/// A handle that left the identity map when its row's class became known (see
/// ``ModelContext/refreshInexactClasses()``), held weakly.
struct SupersededHandle {
  weak var object: ModelObject?
}
