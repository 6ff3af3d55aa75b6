public import ModelGraphCore

/// How the values of an attribute's declared type reach the engine: through the type's own
/// ``PersistentValue`` conformance, or, for a `Codable` type without one, through
/// ``CodableStorage`` or ``OptionalCodableStorage``.
enum AttributeStorage {
  /// The ``PersistentValue`` type that stores values of `declared`.
  static func storageType(of declared: Any.Type) -> any PersistentValue.Type {
    if let persistent = declared as? any PersistentValue.Type { return persistent }
    return codableType(of: declared)
  }

  /// The stand-in for `declared`, a `Codable` type (or optional of one) that is not a
  /// ``PersistentValue``.
  static func codableType(of declared: Any.Type) -> any _CodableStorage.Type {
    if let optional = declared as? any _OptionalType.Type,
      let wrapped = optional.wrappedType as? any Codable.Type
    {
      return optionalStorage(wrapped)
    }
    guard let codable = declared as? any Codable.Type else {
      fatalError("\(declared) is neither a PersistentValue nor Codable")
    }
    return storage(codable)
  }

  /// The stored form of `value`, a value of `declared`.
  static func stored<Value>(_ value: Value) -> any ColumnValue {
    func open<Storage: PersistentValue>(_: Storage.Type) -> any ColumnValue {
      storageValue(value, as: Storage.self).stored
    }
    return open(storageType(of: Value.self))
  }

  /// `value`, of the declared type, as a value of its storage type.
  static func storageValue<Value, Storage: PersistentValue>(_ value: Value, as _: Storage.Type)
    -> Storage
  {
    if let codable = Storage.self as? any _CodableStorage.Type {
      return codable.init(userValue: value) as! Storage
    }
    return value as! Storage
  }

  /// `value`, of a storage type, as a value of the declared type.
  static func declaredValue<Value>(_ value: some PersistentValue, as _: Value.Type) -> Value {
    if let codable = value as? any _CodableStorage { return codable.userValue as! Value }
    return value as! Value
  }

  /// A value of `Value` for key-path probes.
  static func probeValue<Value>(_: Value.Type) -> Value {
    func open<Storage: PersistentValue>(_: Storage.Type) -> Value {
      declaredValue(Storage.probeValue, as: Value.self)
    }
    return open(storageType(of: Value.self))
  }

  /// `nil` as a `Value`, when `Value` is optional.
  static func nilValue<Value>(_: Value.Type) -> Value? {
    func open<Storage: PersistentValue>(_: Storage.Type) -> Value? {
      guard Storage.isOptionalValue else { return nil }
      return declaredValue(Storage.fromStored(Storage.Stored.placeholder), as: Value.self)
    }
    return open(storageType(of: Value.self))
  }

  /// The column type of `Storage`.
  static func columnType<Storage: PersistentValue>(_: Storage.Type) -> any ColumnValue.Type {
    Storage.Stored.self
  }

  private static func storage<Wrapped: Codable>(_: Wrapped.Type) -> any _CodableStorage.Type {
    CodableStorage<Wrapped>.self
  }

  private static func optionalStorage<Wrapped: Codable>(_: Wrapped.Type)
    -> any _CodableStorage.Type
  {
    OptionalCodableStorage<Wrapped>.self
  }
}

/// Reads attribute `slot` of `row` of a `Codable` attribute without a ``PersistentValue``
/// conformance: the slow path, kept out of ``Attribute``'s inlined accessors.
@usableFromInline
func _readCodableAttribute<Value>(_ table: Table, slot: Int, row: Int) -> Value {
  func open<Storage: _CodableStorage>(_: Storage.Type) -> Value {
    let stored = table.value(slot, row: row, as: Storage.Stored.self)
    guard let value = Storage._fromStoredIfValid(stored) else {
      _storedValueMismatch(Storage.self, stored, table, slot: slot, row: row)
    }
    return value.userValue as! Value
  }
  return open(AttributeStorage.codableType(of: Value.self))
}

/// Writes attribute `slot` of `row` of a `Codable` attribute without a ``PersistentValue``
/// conformance.
@usableFromInline
func _writeCodableAttribute<Value>(_ value: Value, _ table: Table, slot: Int, row: Int) {
  func open<Storage: _CodableStorage>(_: Storage.Type) {
    table.column(slot, as: Storage.Stored.self)[row] = Storage(userValue: value).stored
  }
  open(AttributeStorage.codableType(of: Value.self))
}

/// Reads a ``PersistentValue`` attribute, stopping with the class, property and value named when
/// the stored value is no value of the type; `Storage` is `Value`, which the optimizer sees once
/// the accessor is specialized, so the casts cost nothing there. Not `@inline(__always)`:
/// inlined before the existential is folded, it would read the column through generic code.
@inlinable
func _readPersistentAttribute<Storage: PersistentValue, Value>(
  _: Storage.Type, _ table: Unmanaged<Table>, slot: Int, row: Int
) -> Value {
  // The context keeps its tables alive while it manages the owner: no retain needed.
  table._withUnsafeGuaranteedRef {
    let stored = $0.value(slot, row: row, as: Storage.Stored.self)
    // Folded away for the types whose stored values all convert (`_fromStoredIfValid` is the
    // plain conversion): a check only for narrower integers, enums and `Codable` values.
    guard let value = Storage._fromStoredIfValid(stored) else {
      _storedValueMismatch(Storage.self, stored, $0, slot: slot, row: row)
    }
    return value
  } as! Value
}

/// Writes a ``PersistentValue`` attribute; `Storage` is `Value` (see
/// ``_readPersistentAttribute(_:_:slot:row:)``).
@inlinable
func _writePersistentAttribute<Storage: PersistentValue, Value>(
  _: Storage.Type, _ value: Value, _ table: Table, slot: Int, row: Int
) {
  table.column(slot, as: Storage.Stored.self)[row] = (value as! Storage).stored
}
