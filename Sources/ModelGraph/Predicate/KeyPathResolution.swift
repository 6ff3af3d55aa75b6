import ModelGraphCore

/// The persisted property a model key path reads, cached per key path.
enum PersistedProperty: Sendable, Hashable {
  /// An attribute, by name.
  case attribute(String)
  /// A relationship, by name.
  case relationship(String)
  /// The object's identity (`persistentModelID`).
  case identity
}

/// Resolves key paths of model classes to persisted properties once, then from a cache.
///
/// Resolution reads the key path on the class's probe object (see
/// `ModelClassInfo.resolve(_:)`), which takes the class's lock; a query names the same few key
/// paths every time it runs, so the cache makes translation lock-free after a thread's first run.
enum KeyPathResolution {
  private struct Key: Hashable, @unchecked Sendable {
    // @unchecked Sendable: key paths are immutable.
    let keyPath: AnyKeyPath
  }

  private struct Identity: @unchecked Sendable {
    // @unchecked Sendable: key paths are immutable; holding one keeps its identity unique.
    let keyPath: AnyKeyPath
    let property: PersistedProperty?
  }

  private static let cache = ThreadCache<Key, PersistedProperty?>()
  /// The same answers by key path object: key path literals are instantiated once, so a query
  /// that runs again finds its key paths here without hashing their components. An entry keeps
  /// its key path alive, so no other key path can take its identifier.
  private static let identities = ThreadCache<ObjectIdentifier, Identity>()

  /// The persisted property `keyPath` reads, or `nil` when it reads none (a computed or
  /// transient property, or a path through several properties).
  ///
  /// - Complexity: O(1), without a lock, once the thread has seen the key path.
  static func property(_ keyPath: AnyKeyPath) -> PersistedProperty? {
    identities.value(for: ObjectIdentifier(keyPath)) {
      Identity(keyPath: keyPath, property: resolveCached(keyPath))
    }.property
  }

  private static func resolveCached(_ keyPath: AnyKeyPath) -> PersistedProperty? {
    cache.value(for: Key(keyPath: keyPath)) { resolve(keyPath) }
  }

  private static func resolve(_ keyPath: AnyKeyPath) -> PersistedProperty? {
    if let (info, hit) = (try? ModelClassInfo.resolve(keyPath)) ?? nil, isStoredProperty(keyPath) {
      switch hit {
      case .attribute(let slot): return .attribute(info.attributeName(slot))
      case .relationship(let slot): return .relationship(info.relationshipName(slot))
      }
    } else if type(of: keyPath).valueType == PersistentIdentifier.self {
      // A model's only identifier-valued property that reads no attribute: its identity.
      return .identity
    }
    return nil
  }

  /// Whether `keyPath` reads a stored property as it is, rather than a computed one that
  /// reads a single attribute (`var label: String { name + "!" }`), which a probe alone
  /// cannot tell apart: the key path must be writable, and a value written through it must
  /// read back unchanged (checked for strings and numbers, on a new object of the root class).
  private static func isStoredProperty(_ keyPath: AnyKeyPath) -> Bool {
    func openRoot<Root>(_: Root.Type) -> Bool {
      func openValue<Value>(_: Value.Type) -> Bool {
        guard let writable = keyPath as? ReferenceWritableKeyPath<Root, Value> else {
          return false
        }
        guard let sentinel = sentinel(Value.self),
          let object = (Root.self as? ModelObject.Type)?.init(), let model = object as? Root
        else { return true }
        // In probe mode an unset attribute reads as a placeholder instead of stopping.
        object._probe = []
        model[keyPath: writable] = sentinel
        return "\(model[keyPath: writable])" == "\(sentinel)"
      }
      return _openExistential(type(of: keyPath).valueType, do: openValue)
    }
    return _openExistential(type(of: keyPath).rootType, do: openRoot)
  }

  /// A distinctive value of a string or number type, for the write-and-read check.
  private static func sentinel<Value>(_: Value.Type) -> Value? {
    switch Value.self {
    case is String.Type: "probe-Ab9 ✓" as? Value
    case is String?.Type: String?.some("probe-Ab9 ✓") as? Value
    case is Int.Type: 7_777_777 as? Value
    case is Int?.Type: Int?.some(7_777_777) as? Value
    case is Double.Type: 7_777.25 as? Value
    case is Double?.Type: Double?.some(7_777.25) as? Value
    default: nil
    }
  }
}
