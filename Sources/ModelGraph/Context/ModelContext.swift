import ModelGraphCore

/// The place where model objects are inserted, fetched, changed, deleted and saved.
///
/// A context keeps one object per persisted identity (an identity map) and its unsaved changes;
/// ``save()`` publishes them to the container all at once, ``rollback()`` discards them.
/// Contexts are not `Sendable`: use each on one thread or task, and make one per task.
///
/// Each object holds its context, so an object kept after its context was dropped still reads,
/// writes and saves through it. The context holds none of its objects: its unsaved changes live
/// in its session, by row, and an object with such changes that nobody holds any more is made
/// again when the context needs it (``insertedModelsArray``, a fetch; ``save()`` publishes its
/// changes all the same). The related objects of a prefetching fetch are kept while any object
/// that fetch returned is. So once nothing holds a context or any of its objects, the context
/// is freed with the store version it reads (and, on PostgreSQL, what it holds of the
/// container's connections), and its unsaved changes are discarded, as when a SwiftData
/// context is dropped.
public final class ModelContext {
  /// The container whose store the context reads and saves to.
  public let container: ModelContainer
  let session: Session
  @exclusivity(unchecked) var entityCache: [ObjectIdentifier: Int] = [:]
  /// The class ``entityIndex(for:)`` found last and its entity: a context's fetches mostly ask
  /// for one class again, which this answers without hashing.
  @exclusivity(unchecked) var lastEntity: (type: ObjectIdentifier, index: Int)?
  @exclusivity(unchecked) var classCache: [ModelObject.Type?] = []
  /// The entities whose ``classCache`` entry is an ancestor's class (the container knew no
  /// class of their own), checked again whenever a class is registered.
  @exclusivity(unchecked) var inexactClassEntities: [Int] = []
  /// Handles that left the identity map for a handle of their row's own class.
  @exclusivity(unchecked) var supersededHandles: [SupersededHandle] = []
  /// The container's ``ModelContainer/classRegistrations`` when the context last looked up
  /// ``inexactClassEntities``.
  @exclusivity(unchecked) var seenClassRegistrations = 0
  /// The identity map: one handle per (entity, row).
  let registered = IdentityMap()
  /// The number of objects that name this context (``ModelObject/_contextReference``); while
  /// there is any, the context holds one reference to itself for all of them (objects live on
  /// their context's thread, so a plain count serves).
  @exclusivity(unchecked) private var objectHolds = 0
  /// The keys of the objects inserted since the last save or rollback, in insertion order.
  ///
  /// Keys, not objects: each object holds the context, so the context holds none of them
  /// (see ``ModelContext``); the identity map gives the object while it lives.
  @exclusivity(unchecked) var insertedKeys: [ObjectKey] = []
  /// The keys of the saved objects marked changed since the last save or rollback (a key may
  /// repeat: a handle made again for a changed row adds it again).
  @exclusivity(unchecked) var changedKeys: [ObjectKey] = []
  /// The keys of the saved objects deleted since the last save or rollback, with a handle or
  /// without (a cascade reaching rows nobody fetched makes none).
  @exclusivity(unchecked) var deletedKeys: [ObjectKey] = []
  /// Objects whose insert was refused because their class cannot be registered; the next
  /// save throws while any is left.
  @exclusivity(unchecked) var refusedInserts: [RefusedInsert] = []
  /// Collisions with saves made elsewhere that `model(for:)`, which cannot throw, let through
  /// in a store keeping only fetched objects: the next save settles them by ``mergePolicy``
  /// (see `settleDeferredConflicts`); a rollback drops them.
  var deferredConflicts: [Conflict] = []
  /// The related objects the last prefetching fetch resolved, kept alive until the next one.
  @exclusivity(unchecked) var prefetched: PrefetchedRelations?
  /// Advanced by every relationship write, deletion and rollback in the context, so lists
  /// resolved before (``PrefetchedRelations``) are no longer used.
  @exclusivity(unchecked) var relationshipEpoch: UInt64 = 0
  /// Called at each step of a fetch in a store keeping only fetched objects (for tests: saves
  /// made elsewhere between the steps).
  var fetchedStepHook: ((FetchedStep) throws -> Void)?
  /// The translations of the predicate shapes this context fetched with.
  let predicateShapes = PredicateShapeCache()
  /// The last fetch descriptors this context ran from bound plans.
  let fetchMemo = FetchMemo()
  /// What a save does when a new object duplicates a saved object's unique attribute.
  ///
  /// ``UniquenessPolicy/reject`` (the default) throws; SwiftData upserts silently, which
  /// ``UniquenessPolicy/upsert`` does here by explicit choice.
  public var uniquenessPolicy = UniquenessPolicy.reject
  /// How ``save()`` settles changes that collide with other contexts' saves; by default
  /// every conflict refuses the save.
  public var mergePolicy = MergePolicy.rejectConflicts
  private var observer: ContextSessionObserver?
  /// The registrar of the context's `Observable` objects.
  let observation: ContextObservation

  /// Makes a context on `container`'s current committed state.
  public init(_ container: ModelContainer) {
    self.container = container
    session = Session(store: container.store)
    observation = ContextObservation(version: session.base.number)
    observer = ContextSessionObserver(self)
    session.observer = observer
    session.recordsChanges = true
  }

  /// Counts one more object naming this context; the first takes the context's reference to
  /// itself.
  @inline(__always)
  func holdForObject() {
    if objectHolds == 0 { _ = Unmanaged.passUnretained(self).retain() }
    objectHolds &+= 1
  }

  /// Counts one object fewer naming this context; `true` when it was the last, and the caller
  /// releases the context's reference to itself (once it no longer uses the context).
  @inline(__always)
  func releaseObjectHold() -> Bool {
    objectHolds &-= 1
    return objectHolds == 0
  }

  /// Whether anything was inserted, changed or deleted since the last save or rollback
  /// (including an insert refused because the object's class cannot be registered).
  public var hasChanges: Bool { session.hasChanges || !refusedInserts.isEmpty }

  /// The objects inserted and not yet saved, in insertion order (made again for those nobody
  /// holds any more).
  public var insertedModelsArray: [any PersistentModel] {
    insertedObjects.map(\.asModel)
  }

  /// The saved objects changed and not yet saved (made again for those nobody holds any more).
  public var changedModelsArray: [any PersistentModel] {
    changedObjects.map(\.asModel)
  }

  /// The saved objects deleted and not yet saved (made again for those nobody holds any more).
  public var deletedModelsArray: [any PersistentModel] {
    deletedObjects.map(\.asModel)
  }

  /// The entity index of a model class, registering the class on first use.
  func entityIndex(for type: ModelObject.Type) throws -> Int {
    let key = ObjectIdentifier(type)
    if let last = lastEntity, last.type == key { return last.index }
    if let index = entityCache[key] {
      lastEntity = (key, index)
      return index
    }
    let index = try container.entityIndex(for: type)
    entityCache[key] = index
    lastEntity = (key, index)
    checkInexactClasses()
    return index
  }

  /// The public identifier of `key`.
  func identifier(for key: ObjectKey) -> PersistentIdentifier {
    PersistentIdentifier(
      entityName: session.catalog.entities[Int(key.entity)].name, row: key.row,
      generation: key.generation)
  }

  /// The engine key of `identifier`, if it names an entity of this store.
  func key(for identifier: PersistentIdentifier) -> ObjectKey? {
    // The session's catalog first: the store's is behind its lock.
    guard
      let entity = session.catalog.entity(named: identifier.entityName)
        ?? container.store.catalog.entity(named: identifier.entityName)
    else {
      return nil
    }
    return ObjectKey(
      entity: entity.index, row: Int(identifier.row), generation: identifier.generation)
  }

  /// Runs `block`, then saves; if `block` or the save throws, rolls back and rethrows.
  public func transaction(block: () throws -> Void) throws {
    do {
      try block()
      try save()
    } catch {
      rollback()
      throw error
    }
  }
}
