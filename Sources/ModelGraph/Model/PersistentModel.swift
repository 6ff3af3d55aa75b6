public import ModelGraphCore

/// The storage every model class inherits: the object's context, table and row.
///
/// Declare a model with ``PersistentModel``, which is this class together with
/// ``PersistentModelProtocol``; do not subclass `ModelObject` on its own (making such an
/// object stops the process with the class named). Internal code and the engine work with
/// `ModelObject`; generic code constrains on ``PersistentModel``.
///
/// A model object is a handle: once inserted into (or fetched through) a ``ModelContext``, its
/// properties read and write that context's tables. Model objects are not `Sendable`: use one
/// only on its context's thread or task, and pass ``persistentModelID`` across instead.
/// Equality and hashing are by identity, as in SwiftData.
open class ModelObject: Hashable {
  /// The context's working table holding the object's row; `nil` while unmanaged or deleted.
  /// Unretained: the context keeps its tables alive as long as it manages objects.
  @exclusivity(unchecked) @usableFromInline final var _tableReference: Unmanaged<Table>?

  /// ``_tableReference`` as a reference.
  @usableFromInline final var _table: Table? { _tableReference?.takeUnretainedValue() }

  /// Binds the object to `table` (at the row of its ``_key``), or unbinds it when `table` is
  /// `nil`; attributes marked unset at insertion read the row again.
  ///
  /// - Complexity: O(1); O(attributes) once after an insertion left attributes unset.
  final func bindRow(_ table: Table?) {
    _tableReference = table.map(Unmanaged.passUnretained)
    if _hasUnsetAttributes {
      for slot in _classInfo.attributeOffsets.indices {
        _classInfo.markUnset(slot, of: self, false)
      }
      _hasUnsetAttributes = false
    }
  }
  /// The object's row in ``_table``: the row of its key (an object is bound only to its own
  /// key's row, so the row is not stored twice).
  @usableFromInline final var _row: Int {
    @inline(__always) get { Int(_key.row) }
  }
  /// The context that manages the object, without a reference count of its own: a context
  /// holds itself while any object names it (``ModelContext/holdForObject()``), so the object
  /// still keeps its context alive, with one reference for all of them rather than an atomic
  /// retain and release per object. Written only through ``_setContext(_:)``.
  @exclusivity(unchecked) @usableFromInline final var _contextReference: Unmanaged<ModelContext>?

  /// The context that manages the object.
  @usableFromInline final var _context: ModelContext? {
    @inline(__always) get { _contextReference?.takeUnretainedValue() }
  }

  /// Makes `context` the object's context (`nil`: none), moving the object's hold from the
  /// context it had.
  @inline(__always)
  final func _setContext(_ context: ModelContext?) {
    let previous = _contextReference
    if let context {
      context.holdForObject()
      _contextReference = Unmanaged.passUnretained(context)
    } else {
      _contextReference = nil
    }
    if let previous, previous._withUnsafeGuaranteedRef({ $0.releaseObjectHold() }) {
      previous.release()
    }
  }
  @exclusivity(unchecked) @usableFromInline final var _key = ObjectKey.placeholder
  /// The object's place among the owners of the context's last prefetching fetch
  /// (``PrefetchedRelations``), or -1; checked against that fetch's owners before use (also
  /// when the object is freed, which may let that prefetch go). Kept in the four bytes after
  /// the key, so objects are no larger.
  @exclusivity(unchecked) final var _prefetchIndex: Int32 = -1
  @exclusivity(unchecked) final var _status = ModelStatus.new
  @exclusivity(unchecked) final var _isChanged = false
  /// Whether an attribute wrapper is marked unset (see ``ModelClassInfo/markUnset(_:of:_:)``).
  @exclusivity(unchecked) final var _hasUnsetAttributes = false
  /// Whether ``_extra`` holds an ``ObjectSideState`` rather than the class info.
  @exclusivity(unchecked) final var _hasSideState = false
  /// The class's layout (unretained: class infos are never released), or, once the object
  /// needed state that few objects have (the relationships of an object without a row, a
  /// key-path probe's accesses), a retained ``ObjectSideState`` that holds the class's layout
  /// with that state (``_hasSideState``). One word for all three keeps a handle small: a
  /// fetched object with a few attributes fits the allocator's smallest, fastest size classes.
  @exclusivity(unchecked) private final var _extra: UnsafeMutableRawPointer

  /// The class's layout, without a reference count.
  final var _classInfoReference: Unmanaged<ModelClassInfo> {
    @inline(__always) get {
      guard _hasSideState else { return Unmanaged.fromOpaque(_extra) }
      return Unmanaged<ObjectSideState>.fromOpaque(_extra)._withUnsafeGuaranteedRef { $0.info }
    }
  }

  /// The class's layout.
  final var _classInfo: ModelClassInfo { _classInfoReference.takeUnretainedValue() }

  /// The object's side state, if it has any.
  @inline(__always)
  final var _sideState: ObjectSideState? {
    guard _hasSideState else { return nil }
    return Unmanaged<ObjectSideState>.fromOpaque(_extra).takeUnretainedValue()
  }

  /// The object's side state, made on first use.
  final func _makeSideState() -> ObjectSideState {
    if let state = _sideState { return state }
    let state = ObjectSideState(info: Unmanaged.fromOpaque(_extra))
    _extra = Unmanaged.passRetained(state).toOpaque()
    _hasSideState = true
    return state
  }

  /// The relationships of an object that has no row yet, by slot (`nil`: never assigned);
  /// attribute values of such an object live in their wrappers.
  final var _pendingRelationships: [[ModelObject]?]? {
    get { _sideState?.pendingRelationships }
    set {
      guard newValue != nil || _hasSideState else { return }
      _makeSideState().pendingRelationships = newValue
    }
  }

  /// The accesses recorded while the object serves as a key-path probe; `nil` otherwise.
  final var _probe: [ProbeHit]? {
    get { _sideState?.probe }
    set {
      guard newValue != nil || _hasSideState else { return }
      _makeSideState().probe = newValue
    }
  }

  /// Makes an object that belongs to no context yet; insert it with ``ModelContext/insert(_:)``.
  public required init() {
    let info = ModelClassInfo.reference(for: type(of: self))
    _extra = info.toOpaque()
    info._withUnsafeGuaranteedRef { $0.bind(self) }
  }

  deinit {
    if _hasSideState { Unmanaged<ObjectSideState>.fromOpaque(_extra).release() }
    guard let context = _contextReference else { return }
    let wasLast = context._withUnsafeGuaranteedRef {
      $0.forget(self)
      // An owner of a prefetch: the prefetch (and its objects) goes with its last owner.
      if _prefetchIndex >= 0 { $0.prefetchOwnerReleased(self) }
      return $0.releaseObjectHold()
    }
    // The context's hold on itself goes with the last object naming it, once the context is
    // no longer in use here.
    if wasLast { context.release() }
  }

  /// The object's identity in its store; stable for its whole life.
  ///
  /// An object that was never inserted has no identity yet: asking for it stops with a message.
  public var persistentModelID: PersistentIdentifier {
    guard let context = _context else {
      // A key-path probe (resolving `\.persistentModelID` in a #Predicate) reads no property.
      if _probe != nil { return PersistentIdentifier(entityName: "", row: 0, generation: 0) }
      fatalError("\(type(of: self)) has no persistentModelID before it is inserted")
    }
    return context.identifier(for: _key)
  }

  /// The context that manages the object, or `nil` if it was never inserted or was deleted.
  public var modelContext: ModelContext? { _status == .deleted ? nil : _context }

  /// Whether the object was deleted from its context (saved or not).
  public var isDeleted: Bool { _status == .deleted || _status == .pendingDeletion }

  /// Whether the object has unsaved changes: inserted, changed or deleted.
  public var hasChanges: Bool {
    _status == .inserted || _status == .pendingDeletion || _isChanged
  }

  /// Identity equality.
  public static func == (lhs: ModelObject, rhs: ModelObject) -> Bool { lhs === rhs }

  /// Hashes the identity.
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// Where an object stands with its context.
enum ModelStatus {
  /// Never inserted: values live in the object.
  case new
  /// Inserted and not yet saved.
  case inserted
  /// Saved (or fetched) and live.
  case registered
  /// Deleted, and the deletion not yet saved.
  case pendingDeletion
  /// Deleted and saved, or discarded: the object no longer has a row.
  case deleted
}

/// What few objects need, kept out of the object itself (see ``ModelObject/_extra``): the
/// class's layout, and the relationships of an object without a row or a probe's accesses.
final class ObjectSideState {
  let info: Unmanaged<ModelClassInfo>
  /// The relationships of an object that has no row yet, by slot (see
  /// ``ModelObject/_pendingRelationships``).
  var pendingRelationships: [[ModelObject]?]?
  var probe: [ProbeHit]?

  init(info: Unmanaged<ModelClassInfo>) { self.info = info }
}

/// A property access recorded on a probe object while resolving a key path.
enum ProbeHit: Equatable {
  case attribute(Int)
  case relationship(Int)
}
