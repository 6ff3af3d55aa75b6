import ModelGraphCore

/// Turns related keys into objects across many lists: the working table, liveness and model
/// class of an entity are found once per run of keys of that entity, and the run carries over
/// from one list to the next (a prefetch resolves every owner's list of one relationship
/// through one resolver).
struct RelatedObjectResolver {
  private var entity = -1
  private var table: Unmanaged<Table>?
  private var modelClass: ModelObject.Type?

  /// The objects of the live keys among `keys`, in order (keys of objects deleted since are
  /// skipped): the registered ones, and new handles for the others.
  ///
  /// One allocation for a list that is not empty, of the list's length; none for an empty one.
  /// - Complexity: O(keys).
  mutating func objects(for keys: UnsafeBufferPointer<ObjectKey>, in context: ModelContext)
    -> [ModelObject]
  {
    guard !keys.isEmpty else { return [] }
    context.checkInexactClasses()
    return [ModelObject](unsafeUninitializedCapacity: keys.count) { buffer, count in
      for key in keys {
        guard let object = object(for: key, in: context) else { continue }
        (buffer.baseAddress! + count).initialize(to: object)
        count += 1
      }
    }
  }

  /// The objects of `keys`, in order, each retained once into `objects` (`nil` for a key whose
  /// object is no longer alive): a prefetch resolves all its owners' keys of one table in one
  /// pass, then hands the references on to the lists without retaining them again.
  ///
  /// Two passes. The first only reads: it looks each key up in the identity map and, for a key
  /// without a live handle, checks the key's row in its table (``liveness(of:in:)``). The live
  /// handles it finds are noted without a reference count, and the rows of successive keys,
  /// which miss the cache in a large store, are read back to back, so their reads do not wait
  /// on one another behind an atomic increment or a handle's allocation. No code but lookups
  /// runs in it, so no handle noted can go away. The second retains each handle noted (now in
  /// the cache) and makes a handle for each other live key, with the working table, model
  /// class and unsaved state of its entity found once per run of keys of that entity
  /// (``HandleMaker``); making handles runs their classes' `init()`, once every noted handle
  /// is held.
  /// - Complexity: O(keys).
  mutating func resolve(
    _ keys: UnsafeBufferPointer<ObjectKey>,
    into objects: UnsafeMutablePointer<Unmanaged<ModelObject>?>, in context: ModelContext
  ) {
    guard !keys.isEmpty else { return }
    context.checkInexactClasses()
    let map = context.registered
    // One bit per key: a batch of up to 8 192 keys keeps its flags on the stack.
    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: (keys.count &+ 63) &>> 6) {
      isLive in
      isLive.initialize(repeating: 0)
      for (index, key) in keys.enumerated() {
        var live: Unmanaged<ModelObject>?
        if let found = map.find(entity: Int(key.entity), row: Int(key.row)).handle,
          found._withUnsafeGuaranteedRef({
            $0._key.generation == key.generation
              && ($0._status == .registered || $0._status == .inserted)
          })
        {
          live = found
        }
        (objects + index).initialize(to: live)
        if live != nil || liveness(of: key, in: context) {
          isLive[index &>> 6] |= 1 &<< UInt64(index & 63)
        }
      }
      var maker = HandleMaker()
      for (index, key) in keys.enumerated() {
        if let live = objects[index] {
          _ = live.retain()
        } else if isLive[index &>> 6] & (1 &<< UInt64(index & 63)) != 0 {
          objects[index] = Unmanaged.passRetained(maker.object(for: key, in: context))
        }
      }
    }
  }

  /// Whether `key` names the object living in its row: the first key of a run of one entity
  /// shows that the session knows the entity; the run's later keys are checked against that
  /// table directly. Reads only (the session's table of a known entity is already made).
  @inline(__always)
  private mutating func liveness(of key: ObjectKey, in context: ModelContext) -> Bool {
    if Int(key.entity) != entity {
      guard context.session.contains(key) else { return false }
      entity = Int(key.entity)
      table = Unmanaged.passUnretained(context.session.table(entity))
      modelClass = nil
      return true
    }
    return table?._withUnsafeGuaranteedRef { $0.contains(key) } == true
  }

  /// The object of `key` in `context`: the registered one or a new handle; `nil` when the key's
  /// object is no longer alive. The caller has called ``ModelContext/checkInexactClasses()``.
  ///
  /// A registered handle that is live in the context (saved or inserted, not deleted) stands
  /// for a live row: the context unbinds a handle as its row is deleted (by itself, or by
  /// another context's save it takes in), so such a handle is returned without reading the
  /// row's stamp. Any other key is checked against its table. One identity-map lookup gives
  /// the registered handle or the place a new one goes.
  /// - Complexity: O(1).
  @inline(__always)
  mutating func object(for key: ObjectKey, in context: ModelContext) -> ModelObject? {
    let (found, vacancy) = context.registered.find(entity: Int(key.entity), row: Int(key.row))
    var registered: ModelObject?
    if let found, found._withUnsafeGuaranteedRef({ $0._key.generation == key.generation }) {
      let object = found.takeUnretainedValue()
      if object._status == .registered || object._status == .inserted { return object }
      registered = object
    }
    return checkedObject(for: key, registered: registered, vacancy: vacancy, in: context)
  }

  /// The object of `key` once the identity map gave no live handle: `registered` (a handle in
  /// another state) or a new handle, if the row holds the key's object.
  private mutating func checkedObject(
    for key: ObjectKey, registered: ModelObject?, vacancy: IdentityMap.Vacancy,
    in context: ModelContext
  ) -> ModelObject? {
    if Int(key.entity) != entity {
      // The first key of a run shows that the session knows its entity; the run's later keys
      // are checked against that table directly.
      guard context.session.contains(key) else { return nil }
      entity = Int(key.entity)
      table = Unmanaged.passUnretained(context.session.table(entity))
      modelClass = nil
    } else if table?._withUnsafeGuaranteedRef({ $0.contains(key) }) != true {
      return nil
    }
    if let registered { return registered }
    let type = modelClass ?? context.modelClass(forEntity: entity)
    modelClass = type
    return context.makeObject(
      for: key, of: type, in: table!.takeUnretainedValue(), at: vacancy)
  }
}
