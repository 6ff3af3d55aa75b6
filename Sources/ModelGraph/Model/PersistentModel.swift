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

  /// Binds the object to `row` of `table`, or unbinds it when `table` is `nil`; attributes
  /// marked unset at insertion read the row again.
  ///
  /// - Complexity: O(1); O(attributes) once after an insertion left attributes unset.
  final func bindRow(_ table: Table?, row: Int) {
    _tableReference = table.map(Unmanaged.passUnretained)
    _row = row
    if _hasUnsetAttributes {
      for slot in _classInfo.attributeOffsets.indices {
        _classInfo.markUnset(slot, of: self, false)
      }
      _hasUnsetAttributes = false
    }
  }
  /// The object's row in ``_table``.
  @exclusivity(unchecked) @usableFromInline final var _row: Int = 0
  /// The context that manages the object.
  @exclusivity(unchecked) @usableFromInline final var _context: ModelContext?
  @exclusivity(unchecked) final var _key = ObjectKey.placeholder
  @exclusivity(unchecked) final var _status = ModelStatus.new
  @exclusivity(unchecked) final var _isChanged = false
  /// Whether an attribute wrapper is marked unset (see ``ModelClassInfo/markUnset(_:of:_:)``).
  @exclusivity(unchecked) final var _hasUnsetAttributes = false
  /// The object's place among the owners of the context's last prefetching fetch
  /// (``PrefetchedRelations``), or -1; checked against that fetch's owners before use (also
  /// when the object is freed, which may let that prefetch go). Kept in
  /// the padding after the flags above, so objects are no larger.
  @exclusivity(unchecked) final var _prefetchIndex: Int32 = -1
  /// The relationships of an object that has no row yet (see ``PendingValues``).
  @exclusivity(unchecked) final var _pending: PendingValues?
  /// The accesses recorded while the object serves as a key-path probe; `nil` otherwise.
  /// Read first by every relationship read, so without a dynamic exclusivity check, as the
  /// other fields (an object is used on its context's thread only).
  @exclusivity(unchecked) final var _probe: [ProbeHit]?
  /// The class's layout, unretained, since class infos are never released: making an object
  /// takes no reference count on it.
  final let _classInfoReference: Unmanaged<ModelClassInfo>

  /// The class's layout.
  final var _classInfo: ModelClassInfo { _classInfoReference.takeUnretainedValue() }

  /// Makes an object that belongs to no context yet; insert it with ``ModelContext/insert(_:)``.
  public required init() {
    _classInfoReference = ModelClassInfo.reference(for: type(of: self))
    _classInfoReference._withUnsafeGuaranteedRef { $0.bind(self) }
  }

  deinit {
    // The object holds its context until its fields are destroyed, after this body.
    guard let context = _context.map(Unmanaged.passUnretained) else { return }
    context._withUnsafeGuaranteedRef {
      $0.forget(self)
      // An owner of a prefetch: the prefetch (and its objects) goes with its last owner.
      if _prefetchIndex >= 0 { $0.prefetchOwnerReleased(self) }
    }
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

/// The relationships of an object that has no row yet, by slot (attribute values of such an
/// object live in their wrappers).
final class PendingValues {
  var relationships: [[ModelObject]?]

  init(info: ModelClassInfo) {
    relationships = Array(repeating: nil, count: info.relationshipWrappers.count)
  }
}

/// A property access recorded on a probe object while resolving a key path.
enum ProbeHit: Equatable {
  case attribute(Int)
  case relationship(Int)
}
