public import ModelGraphCore

extension ModelContext {
  /// Records `model` as the one object of its key in this context.
  func register(_ model: ModelObject) {
    registered.insert(
      Unmanaged.passUnretained(model), entity: Int(model._key.entity), row: model._row)
  }

  /// Removes `model` from the identity map (it is being deallocated or unbound); another
  /// object registered for its row since stays.
  @inline(__always)
  func forget(_ model: ModelObject) {
    registered.remove(
      Unmanaged.passUnretained(model), entity: Int(model._key.entity), row: model._row)
  }

  /// Releases the identity-map storage of entities with no registered object (called on save,
  /// not on every release, so a scan that drops each handle does not regrow the map per row).
  func compactIdentityMap() {
    registered.compact()
  }

  /// Moves the session to the newest committed version when it has no unsaved changes.
  func refreshIfClean(to version: StoreVersion? = nil) {
    session.refreshIfClean(to: version)
    dropHandlesDeletedElsewhere()
  }

  /// After the session took in other contexts' saves, unbinds every handle whose object another
  /// context deleted, so the handle never reads a row that a new object reuses (and, after
  /// any save, each superseded handle whose object is gone: ``unbindSupersededHandles()``).
  ///
  /// - Parameter firesObservation: Whether the trackings of what those saves changed fire now;
  ///   a save rebasing onto saves whose commits may not be durable yet passes `false` and fires
  ///   them once its own version is durable (``observationDidAbsorbForeignChanges(through:)``).
  /// - Complexity: O(registered objects), and only after other contexts saved.
  func dropHandlesDeletedElsewhere(firesObservation: Bool = true) {
    unbindSupersededHandles()
    guard session.takeForeignChangesFlag() else { return }
    if firesObservation { observationDidAbsorbForeignChanges() }
    for entity in 0..<registered.entityCount where registered.count(ofEntity: entity) > 0 {
      let table = session.table(entity)
      for row in registered.rows(ofEntity: entity) {
        guard let object = registered.handle(entity: entity, row: row)?.takeUnretainedValue(),
          object._status == .registered, !table.contains(object._key)
        else { continue }
        registered.remove(entity: entity, row: row)
        object.bindRow(nil)
        object._status = .deleted
      }
    }
  }

  /// The object already registered for `key`, if any.
  func registeredObject(for key: ObjectKey) -> ModelObject? {
    checkInexactClasses()
    let entity = Int(key.entity)
    // The generation is read without taking a reference; only a match is retained.
    guard let found = registered.handle(entity: entity, row: Int(key.row)),
      Self.isObject(found, of: key)
    else { return nil }
    return found.takeUnretainedValue()
  }

  /// Whether `handle`, registered for `key`'s row, is the object of `key` rather than of an
  /// older generation of the row; the generation is read without taking a reference.
  @inline(__always)
  private static func isObject(_ handle: Unmanaged<ModelObject>, of key: ObjectKey) -> Bool {
    handle._withUnsafeGuaranteedRef { $0._key.generation == key.generation }
  }

  /// The object for `key`: the registered one, or a new handle bound to its row.
  ///
  /// The caller guarantees the key names a live row of the session.
  /// - Complexity: O(1).
  func object(for key: ObjectKey) -> ModelObject {
    if let object = registeredObject(for: key) { return object }
    let entity = Int(key.entity)
    return makeObject(for: key, of: modelClass(forEntity: entity), in: session.table(entity))
  }

  /// The objects for `keys` (live rows of the session), in order, as `T`: the registered
  /// ones, and new handles for the others.
  ///
  /// The model class and working table of an entity (and whether the session has unsaved
  /// changes to it, which objects made without any skip) are looked up once per fetch for the
  /// last few entities met (a deep fetch's keys alternate between the tables of a class and
  /// its subclasses), not per object; the array is filled in place.
  /// - Complexity: O(keys).
  func materialize<T: ModelObject>(_ keys: ArraySlice<ObjectKey>, as _: T.Type) -> [T] {
    // An empty array made with an uninitialized capacity of 0 writes its count into the
    // storage every empty array shares, a write that races with other threads' reads.
    guard !keys.isEmpty else { return [] }
    return withUnsafeTemporaryAllocation(of: MaterializedEntity.self, capacity: 4) { entities in
      var known = 0
      var next = 0
      // A class registered meanwhile (here or on another thread) can give an entity met
      // before a nearer class: the entities looked up are then looked up again.
      var registrations = seenClassRegistrations
      return [T](unsafeUninitializedCapacity: keys.count) { buffer, count in
        // Filled as `ModelObject` references (the same layout as `T`'s), so each store is
        // concrete code rather than a call through `T`'s generic witnesses.
        buffer.withMemoryRebound(to: ModelObject.self) { objects in
          var target = objects.baseAddress!
          // Checked once per fetch rather than per key: a class registered during the fetch
          // is taken up by the next one, as if registered just after this one.
          checkInexactClasses()
          for key in keys {
            let entity = Int(key.entity)
            // One lookup gives the registered object or where a new one goes.
            let (found, vacancy) = registered.find(entity: entity, row: Int(key.row))
            // Each branch stores its own reference: a variable shared by both costs the made
            // object a retain and a release.
            if let found, Self.isObject(found, of: key) {
              target.initialize(to: found.takeUnretainedValue())
            } else {
              if registrations != seenClassRegistrations {
                registrations = seenClassRegistrations
                known = 0
                next = 0
              }
              var place = 0
              while place < known && entities[place].entity != entity { place &+= 1 }
              if place == known {
                // Not among the last entities met: look it up, in place of the oldest once full.
                let made = MaterializedEntity(
                  entity: entity, modelClass: modelClass(forEntity: entity),
                  table: Unmanaged.passUnretained(session.table(entity)),
                  hasUnsavedChanges: session.hasUnsavedChanges(entity: entity))
                if known < entities.count {
                  entities.initializeElement(at: known, to: made)
                  known &+= 1
                } else {
                  place = next
                  entities[place] = made
                  next = (next &+ 1) % entities.count
                }
              }
              let object = entities[place].table._withUnsafeGuaranteedRef {
                newObject(
                  for: key, of: entities[place].modelClass, in: $0,
                  appliesUnsavedState: entities[place].hasUnsavedChanges)
              }
              // Registered where the lookup found room, unless the class's `init()` changed
              // the map meanwhile (then looked up again); a stale handle of the row (an older
              // generation) is replaced, as `makeObject` does.
              registered.fill(vacancy, with: Unmanaged.passUnretained(object))
              target.initialize(to: object)
            }
            assert(
              target.pointee is T,
              "a fetch of \(T.self) met an object of \(type(of: target.pointee))")
            target += 1
            count &+= 1
          }
        }
      }
    }
  }

  /// A new handle of `modelClass` for `key`'s row of `table`, registered.
  ///
  /// One allocation (the object, its wrappers bound to it by its class's offsets in `init`);
  /// binding it to its row sets the object's table and row only, since its wrappers read them
  /// through the object.
  func makeObject(for key: ObjectKey, of modelClass: ModelObject.Type, in table: Table)
    -> ModelObject
  {
    let object = newObject(for: key, of: modelClass, in: table)
    registered.insert(Unmanaged.passUnretained(object), entity: Int(key.entity), row: Int(key.row))
    return object
  }

  /// A new handle of `modelClass` for `key`'s row of `table`, registered where `vacancy` says
  /// (the identity-map lookup that found no handle of the key gave it): one store when the map
  /// has not changed since, else an insert. `appliesUnsavedState` is `false` only when the
  /// session has no unsaved changes to the key's entity.
  func makeObject(
    for key: ObjectKey, of modelClass: ModelObject.Type, in table: Table,
    at vacancy: IdentityMap.Vacancy, appliesUnsavedState: Bool = true
  ) -> ModelObject {
    let object = newObject(
      for: key, of: modelClass, in: table, appliesUnsavedState: appliesUnsavedState)
    registered.fill(vacancy, with: Unmanaged.passUnretained(object))
    return object
  }

  /// A new handle of `modelClass` for `key`'s row of `table`, not yet registered: the caller
  /// registers it in the identity map.
  ///
  /// - Parameter appliesUnsavedState: Whether to look up the row's unsaved state (new or
  ///   changed); `false` only when the session has no unsaved changes to the key's entity.
  @inline(__always)
  private func newObject(
    for key: ObjectKey, of modelClass: ModelObject.Type, in table: Table,
    appliesUnsavedState: Bool = true
  ) -> ModelObject {
    let object = modelClass.init()
    // A new object has no attribute marked unset: its table and key (which gives its row) are
    // two stores.
    object._tableReference = Unmanaged.passUnretained(table)
    object._setContext(self)
    object._key = key
    object._status = .registered
    if appliesUnsavedState { applyUnsavedState(to: object, key: key) }
    return object
  }

  /// `made(key)` for each key, in order, as `T`.
  ///
  /// A loop over the concrete keys: `keys.map` in a caller's unspecialized generic code reads
  /// each key through the collection's generic accessor, which allocates a frame per key.
  /// - Complexity: O(keys) calls of `made`.
  func models<T: ModelObject>(
    _ keys: ArraySlice<ObjectKey>, as _: T.Type, made: (ObjectKey) -> ModelObject
  ) -> [T] {
    var models: [T] = []
    models.reserveCapacity(keys.count)
    for key in keys { models.append(unsafeDowncast(made(key), to: T.self)) }
    return models
  }

  func modelClass(forEntity entity: Int) -> ModelObject.Type {
    guard let type = modelClassIfAny(forEntity: entity) else {
      fatalError("no model class is registered for entity \(entity)")
    }
    return type
  }

  /// The model class of `entity`, or of its nearest ancestor that has one; `nil` for an entity
  /// of a hierarchy no Swift class maps to (declared by the runner or another app).
  ///
  /// An ancestor's class stands in for an entity whose own class the container cannot find by
  /// name (a subclass in another module or enclosing type that it was not given) only until
  /// that class is registered (``refreshInexactClasses()``).
  func modelClassIfAny(forEntity entity: Int) -> ModelObject.Type? {
    checkInexactClasses()
    if entity < classCache.count, let type = classCache[entity] { return type }
    if entity >= classCache.count {
      classCache += Array(repeating: nil, count: entity + 1 - classCache.count)
    }
    guard let (type, exact) = lookUpModelClass(forEntity: entity) else { return nil }
    classCache[entity] = type
    if !exact { inexactClassEntities.append(entity) }
    return type
  }

  /// The class of `entity` or of its nearest ancestor that has one, and whether it is the
  /// entity's own.
  private func lookUpModelClass(forEntity entity: Int) -> (ModelObject.Type, exact: Bool)? {
    var candidate: Int? = entity
    while let index = candidate {
      if let type = container.modelClass(forEntity: index) { return (type, index == entity) }
      candidate = session.catalog.entities[index].parentIndex
    }
    return nil
  }

  /// The object with `identifier`, from the identity map or materialized from its row.
  ///
  /// A context without unsaved changes first takes in what other contexts saved, as a fetch
  /// does, so an identifier passed from another context or actor resolves once it is saved.
  /// With a PostgreSQL store keeping only fetched objects, an object not in memory is read
  /// first; a context with unsaved changes then moves to the newest data with its changes
  /// replayed, as a fetch does. A collision of those changes with a save made elsewhere that
  /// ``mergePolicy`` refuses does not hide the object: the context keeps its own values there
  /// and the next ``save()`` settles (or refuses) it.
  /// - Returns: `nil` when no live object has this identifier (deleted, not saved yet, or of
  ///   another store), or when no Swift model class maps to its class (one the runner or
  ///   another app declared).
  /// - Complexity: O(1); the first call after other contexts saved also does the fetch's
  ///   refresh, O(registered objects).
  public func model(for identifier: PersistentIdentifier) -> (any PersistentModel)? {
    refreshIfClean()
    loadIdentified(identifier)
    guard let key = key(for: identifier), session.contains(key),
      registeredObject(for: key) != nil || modelClassIfAny(forEntity: Int(key.entity)) != nil
    else { return nil }
    return object(for: key).asModel
  }

  /// The object with `identifier` if this context has already registered it.
  ///
  /// - Complexity: O(1).
  public func registeredModel<T: PersistentModel>(for identifier: PersistentIdentifier) -> T? {
    key(for: identifier).flatMap(registeredObject(for:)) as? T
  }
}

/// The model class and working table of one entity, as ``ModelContext/materialize(_:as:)``
/// keeps them for the last few entities it met.
struct MaterializedEntity {
  var entity: Int
  var modelClass: ModelObject.Type
  /// Kept alive by the session for the whole fetch.
  var table: Unmanaged<Table>
  /// Whether the session had unsaved changes to the entity when the fetch met it: without
  /// any, the objects made skip the lookup of their rows' unsaved state. Nothing the fetch
  /// runs changes the rows it materializes (a class's `init()` makes an unmanaged object).
  var hasUnsavedChanges: Bool
}
