public import ModelGraphCore

/// Marks a stored property of a model class as a persisted attribute.
///
/// ```swift
/// @Attribute var name: String
/// @Attribute(.unique) var identifier: UUID
/// @Attribute(.preserveValueOnDeletion) var auditCode: String?
/// @Attribute(originalName: "title") var name: String
/// @Attribute var visits = 0
/// ```
/// The value type is a ``PersistentValue`` (the built-in types, their optionals, arrays and
/// sets, and enums and structs that add the conformance), or any other `Codable` type as
/// written: a struct, an enum (with raw or associated values) or a dictionary, stored as one
/// composite value encoded as JSON (each read of a managed object decodes it; keep a value read
/// in a loop in a local). A property declared without an initial value must be set
/// before the object is saved (optionals default to `nil`); reading it before it is set,
/// inserted or not, stops the process with the class and property named.
@propertyWrapper
public struct Attribute<Value> {
  /// An option of an attribute, as in SwiftData.
  public typealias Option = AttributeOption

  /// The object the wrapper is stored in; unretained, since the object owns the wrapper. The
  /// object holds the table and row the value is read from, so binding an object to a row
  /// writes nothing into its wrappers.
  @usableFromInline var owner: Unmanaged<ModelObject>?
  /// The attribute's slot in its class; 16 bits, so that the head (owner, slot, `isUnset`,
  /// `declaration`) fills 16 bytes and the value starts where a read already loads.
  @usableFromInline var slot: Int16 = -1
  /// Whether the owner was inserted without a value for this (required) attribute: reads go
  /// through the owner, which stops with the property's name, until the first write.
  @usableFromInline var isUnset = false
  /// The number of this declaration's record (options, `originalName:`) in
  /// ``DeclarationRecorder``, kept only by a class's prototype object; other objects store
  /// ``DeclarationRecorder/none`` and hold no reference-counted field for the declaration.
  @usableFromInline let declaration: Int32
  /// The value while the owner has no row (before it is inserted); starts as the declared
  /// initial value.
  @usableFromInline var value: Value?

  /// An attribute without an initial value or options.
  @inlinable
  public init() where Value: PersistentValue {
    declaration = Self.record([], originalName: nil)
  }

  /// An attribute without an initial value.
  ///
  /// - Parameters:
  ///   - options: What the attribute does besides holding its value (see ``AttributeOption``).
  ///   - originalName: The property's name in an earlier schema version.
  ///   - hashModifier: Accepted for SwiftData code; no effect (a store's schema is matched by
  ///     content, not by a version hash).
  @inlinable
  public init(
    _ options: Option..., originalName: String? = nil,
    hashModifier: String? = nil
  ) where Value: PersistentValue {
    declaration = Self.record(options, originalName: originalName)
  }

  /// An attribute with an initial value for new objects.
  @inlinable
  public init(
    wrappedValue: Value, _ options: Option..., originalName: String? = nil,
    hashModifier: String? = nil
  )
  where Value: PersistentValue {
    self.value = wrappedValue
    declaration = Self.record(options, originalName: originalName)
  }

  /// An attribute of a `Codable` type that is not a ``PersistentValue``, without an initial
  /// value or options; its values are stored encoded as JSON.
  @inlinable @_disfavoredOverload
  public init() where Value: Codable {
    declaration = Self.record([], originalName: nil)
  }

  /// An attribute of a `Codable` type that is not a ``PersistentValue``, without an initial
  /// value; its values are stored encoded as JSON.
  @inlinable @_disfavoredOverload
  public init(
    _ options: Option..., originalName: String? = nil,
    hashModifier: String? = nil
  ) where Value: Codable {
    declaration = Self.record(options, originalName: originalName)
  }

  /// An attribute of a `Codable` type that is not a ``PersistentValue``, with an initial value
  /// for new objects; its values are stored encoded as JSON.
  @inlinable @_disfavoredOverload
  public init(
    wrappedValue: Value, _ options: Option..., originalName: String? = nil,
    hashModifier: String? = nil
  )
  where Value: Codable {
    self.value = wrappedValue
    declaration = Self.record(options, originalName: originalName)
  }

  /// The value, read from and written to the context's table once the object is managed.
  ///
  /// - Complexity: O(1).
  @inlinable
  public var wrappedValue: Value {
    get {
      guard let owner else { _wrapperOutsideModel("@Attribute") }
      let (table, row) = owner._withUnsafeGuaranteedRef { ($0._tableReference, $0._row) }
      if let table, !isUnset {
        let slot = Int(self.slot)
        _accessAttribute(table, owner, slot: slot, row: row)
        // Folded away once specialized for a `PersistentValue` type.
        guard let storage = Value.self as? any PersistentValue.Type else {
          return _readCodableAttribute(table.takeUnretainedValue(), slot: slot, row: row)
        }
        return _readPersistentAttribute(storage, table, slot: slot, row: row)
      }
      return owner.takeUnretainedValue()._unmanagedValue(slot: Int(slot), value: value)
    }
    nonmutating set {
      guard let owner else { _wrapperOutsideModel("@Attribute") }
      // The owner outlives the wrapper it holds: it is used without a reference count.
      owner._withUnsafeGuaranteedRef { owner in
        if let table = owner._table {
          if let storage = Value.self as? any PersistentValue.Type {
            _writePersistentAttribute(storage, newValue, table, slot: Int(slot), row: owner._row)
          } else {
            _writeCodableAttribute(newValue, table, slot: Int(slot), row: owner._row)
          }
          owner._didWrite(slot: Int(slot))
        } else {
          // The owner has no row: the value lives in the wrapper stored inside the owner.
          owner._unmanagedWrapperAddress(slot: Int(slot)).assumingMemoryBound(to: Self.self)
            .pointee.value = newValue
        }
      }
    }
  }
}

extension Attribute {
  /// Records the declaration's arguments while a prototype is being made (see
  /// ``DeclarationRecorder``); otherwise records nothing.
  @inlinable
  static func record(_ options: [Option], originalName: String?) -> Int32 {
    guard DeclarationRecorder.isRecording else { return DeclarationRecorder.none }
    return DeclarationRecorder.recordAttribute(options, originalName: originalName)
  }
}

/// The fixed-size head of every `Attribute<Value>`: `owner`, `slot` and `isUnset` come before
/// the generic `value`, so their offsets do not depend on `Value` and binding writes them
/// without generic code (see ``WrapperLayout``).
enum AttributeLayout {
  static let owner = MemoryLayout<Attribute<Int8>>.offset(of: \.owner)!
  static let slot = MemoryLayout<Attribute<Int8>>.offset(of: \.slot)!
  static let isUnset = MemoryLayout<Attribute<Int8>>.offset(of: \.isUnset)!
}

/// The options of `@Attribute` declarations, as bits.
@usableFromInline
enum AttributeDeclaration {
  @usableFromInline static let unique: UInt8 = 1
  @usableFromInline static let preservesValueOnDeletion: UInt8 = 2

  /// The bits of the options that change behaviour; the others set none.
  @inlinable
  static func bits(_ options: [AttributeOption]) -> UInt8 {
    var bits: UInt8 = 0
    for option in options {
      switch option.code {
      case AttributeOption.Code.unique: bits |= unique
      case AttributeOption.Code.preserveValueOnDeletion: bits |= preservesValueOnDeletion
      default: break
      }
    }
    return bits
  }
}

extension Attribute: _AttributeWrapper {
  static var valueSwiftType: Any.Type { Value.self }
  static var attributeValueType: ValueType { persistentValueType.valueType }
  static var isOptional: Bool { persistentValueType.isOptionalValue }
  static var storedType: any ColumnValue.Type {
    AttributeStorage.columnType(persistentValueType)
  }

  static func description(at address: UnsafeMutableRawPointer, name: String)
    -> AttributeDescription
  {
    let number = address.assumingMemoryBound(to: Self.self).pointee.declaration
    guard case .attribute(let options, let originalName)? = DeclarationRecorder.record(number)
    else { fatalError("\(name)'s declaration was not recorded") }
    return AttributeDescription(
      name: name, valueType: attributeValueType, isOptional: isOptional,
      isUnique: options & AttributeDeclaration.unique != 0,
      preservesValueOnDeletion: options & AttributeDeclaration.preservesValueOnDeletion != 0,
      originalName: originalName)
  }

  static var persistentValueType: any PersistentValue.Type {
    AttributeStorage.storageType(of: Value.self)
  }
  static var valueOffset: Int { MemoryLayout<Self>.offset(of: \Self.value)! }

  static func restoreValue(_ stored: any ColumnValue, at address: UnsafeMutableRawPointer) {
    func open<Storage: PersistentValue>(_: Storage.Type) -> Value {
      AttributeStorage.declaredValue(
        Storage.fromStored(stored as! Storage.Stored), as: Value.self)
    }
    address.assumingMemoryBound(to: Self.self).pointee.value = open(persistentValueType)
  }
}

/// Marks a stored property of a model class as not persisted.
///
/// A transient property keeps its value in the object only; it is not saved, fetched or
/// restored by a rollback.
@propertyWrapper
public struct Transient<Value> {
  /// The value.
  public var wrappedValue: Value

  /// A transient property with an initial value.
  public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
}

extension Transient: _TransientWrapper {}
