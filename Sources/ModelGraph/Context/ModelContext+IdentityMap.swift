public import ModelGraphCore

extension ModelContext {
  /// Records `model` as the one object of its key in this context.
  func register(_ model: ModelObject) {
    let entity = Int(model._key.entity)
    if entity >= registered.count {
      registered += Array(repeating: IdentityTable(), count: entity + 1 - registered.count)
    }
    registered[entity][model._row] = Unmanaged.passUnretained(model)
  }

  /// Removes `model` from the identity map (it is being deallocated or unbound).
  func forget(_ model: ModelObject) {
    let entity = Int(model._key.entity)
    let row = model._row
    guard entity < registered.count,
      registered[entity][row]?.toOpaque() == Unmanaged.passUnretained(model).toOpaque()
    else { return }
    registered[entity][row] = nil
  }

  /// Releases the identity-map storage of entities with no registered object (called on save,
  /// not on every release, so a scan that drops each handle does not regrow the map per row).
  func compactIdentityMap() {
    for entity in registered.indices { registered[entity].compact() }
  }

  /// Moves the session to the newest committed version when it has no unsaved changes.
  func refreshIfClean() {
    session.refreshIfClean()
    dropHandlesDeletedElsewhere()
  }

  /// After the session took in other contexts' saves, unbinds every handle whose object another
  /// context deleted, so the handle never reads a row that a new object reuses.
  ///
  /// - Parameter firesObservation: Whether the trackings of what those saves changed fire now;
  ///   a save rebasing onto saves whose commits may not be durable yet passes `false` and fires
  ///   them once its own version is durable (``observationDidAbsorbForeignChanges(through:)``).
  /// - Complexity: O(registered objects), and only after other contexts saved.
  func dropHandlesDeletedElsewhere(firesObservation: Bool = true) {
    guard session.takeForeignChangesFlag() else { return }
    if firesObservation { observationDidAbsorbForeignChanges() }
    for entity in registered.indices where registered[entity].count > 0 {
      let table = session.table(entity)
      for row in registered[entity].rows {
        guard let object = registered[entity][row]?.takeUnretainedValue(),
          object._status == .registered, !table.contains(object._key)
        else { continue }
        registered[entity][row] = nil
        object.bindRow(nil, row: object._row)
        object._status = .deleted
      }
    }
  }

  /// The object already registered for `key`, if any.
  func registeredObject(for key: ObjectKey) -> ModelObject? {
    let entity = Int(key.entity)
    // The generation is read without taking a reference; only a match is retained.
    guard entity < registered.count, let found = registered[entity][Int(key.row)],
      found._withUnsafeGuaranteedRef({ $0._key.generation == key.generation })
    else { return nil }
    return found.takeUnretainedValue()
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
  /// The model class and working table are looked up once per run of keys of one entity, not
  /// per object (a fetch yields its keys table by table).
  /// - Complexity: O(keys).
  func materialize<T: ModelObject>(_ keys: ArraySlice<ObjectKey>, as _: T.Type) -> [T] {
    var models: [T] = []
    models.reserveCapacity(keys.count)
    var entity = -1
    var modelClass: ModelObject.Type = T.self
    var table: Table?
    for key in keys {
      if let object = registeredObject(for: key) {
        models.append(unsafeDowncast(object, to: T.self))
        continue
      }
      if Int(key.entity) != entity {
        entity = Int(key.entity)
        modelClass = self.modelClass(forEntity: entity)
        table = session.table(entity)
      }
      models.append(unsafeDowncast(makeObject(for: key, of: modelClass, in: table!), to: T.self))
    }
    return models
  }

  /// A new handle of `modelClass` for `key`'s row of `table`, registered.
  ///
  /// One allocation (the object, its wrappers bound to it by its class's offsets in `init`);
  /// binding it to its row sets the object's table and row only, since its wrappers read them
  /// through the object.
  func makeObject(for key: ObjectKey, of modelClass: ModelObject.Type, in table: Table)
    -> ModelObject
  {
    let object = modelClass.init()
    object.bindRow(table, row: Int(key.row))
    object._context = self
    object._key = key
    object._status = .registered
    register(object)
    if session.isUpdated(entity: Int(key.entity), row: Int(key.row)) {
      object._isChanged = true
      changedObjects.append(object)
    }
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
  func modelClassIfAny(forEntity entity: Int) -> ModelObject.Type? {
    if entity < classCache.count, let type = classCache[entity] { return type }
    if entity >= classCache.count {
      classCache += Array(repeating: nil, count: entity + 1 - classCache.count)
    }
    var candidate: Int? = entity
    while let index = candidate {
      if let type = container.modelClass(forEntity: index) {
        classCache[entity] = type
        return type
      }
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
