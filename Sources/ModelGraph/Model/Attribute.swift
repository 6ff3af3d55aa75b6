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

  /// The value while the owner has no row (before it is inserted); starts as the declared
  /// initial value. First, so the fields after it fill the value's padding (a `Double?` or
  /// `Date?` leaves seven bytes): objects with a few attributes stay small.
  @usableFromInline var value: Value?
  /// The attribute's slot in its class, written when the object is made; its complement
  /// (negative) while the owner was inserted without a value for this (required) attribute:
  /// reads then go through the owner, which stops with the property's name, until the first
  /// write. The wrapper holds no reference to its object: the accessors receive the object
  /// (`_enclosingInstance`) and read its table and row from it, so a read loads the object's
  /// head and this field, with neither load waiting on the other.
  @usableFromInline var slot: Int16 = -1
  /// The number of this declaration's record (options, `originalName:`) in
  /// ``DeclarationRecorder``, kept only by a class's prototype object; other objects store
  /// ``DeclarationRecorder/none`` and hold no reference-counted field for the declaration.
  /// A declaration without arguments is ``DeclarationRecorder/plain`` in every object.
  @usableFromInline let declaration: Int32

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
  /// A model class reaches it through ``subscript(_enclosingInstance:wrapped:storage:)``;
  /// `@Attribute` outside a model class does not compile.
  @available(*, unavailable, message: "@Attribute is only available on model classes")
  public var wrappedValue: Value {
    get { fatalError("@Attribute is only available on model classes") }
    nonmutating set { fatalError("@Attribute is only available on model classes") }
  }

  /// The value of the attribute of `instance` that `storage` names: read from and written to
  /// the context's table once the object is managed, kept in the wrapper before.
  ///
  /// - Complexity: O(1).
  @inlinable
  public static subscript<Owner: ModelObject>(
    _enclosingInstance instance: Owner,
    wrapped wrapped: ReferenceWritableKeyPath<Owner, Value>,
    storage storage: ReferenceWritableKeyPath<Owner, Self>
  ) -> Value {
    @inline(__always) get {
      // The owner's head and the wrapper's slot are loaded independently.
      let table = instance._tableReference
      let row = instance._row
      let bits = Int(instance[keyPath: storage].slot)
      if let table, bits >= 0 {
        _accessAttribute(table, Unmanaged.passUnretained(instance), slot: bits, row: row)
        // Folded away once specialized for a `PersistentValue` type.
        guard let type = Value.self as? any PersistentValue.Type else {
          return _readCodableAttribute(table.takeUnretainedValue(), slot: bits, row: row)
        }
        return _readPersistentAttribute(type, table, slot: bits, row: row)
      }
      return instance._unmanagedValue(
        slot: bits >= 0 ? bits : ~bits, value: instance[keyPath: storage].value)
    }
    @inline(__always) set {
      let bits = Int(instance[keyPath: storage].slot)
      let slot = bits >= 0 ? bits : ~bits
      if let table = instance._tableReference {
        if let type = Value.self as? any PersistentValue.Type {
          _writePersistentAttribute(
            type, newValue, table.takeUnretainedValue(), slot: slot, row: instance._row)
        } else {
          _writeCodableAttribute(
            newValue, table.takeUnretainedValue(), slot: slot, row: instance._row)
        }
        instance._didWrite(slot: slot)
      } else {
        // The owner has no row: the value lives in the wrapper stored inside the owner.
        instance.checkNotDeleted()
        instance[keyPath: storage].value = newValue
      }
    }
  }
}

extension Attribute {
  /// Records the declaration's arguments while a prototype is being made (see
  /// ``DeclarationRecorder``); otherwise records nothing.
  ///
  /// A declaration without options or `originalName:` (the common `@Attribute var x: T`) is
  /// ``DeclarationRecorder/plain`` in every object, prototype or not, so making an object reads
  /// no recording state for it.
  @inlinable
  static func record(_ options: [Option], originalName: String?) -> Int32 {
    if options.isEmpty && originalName == nil { return DeclarationRecorder.plain }
    guard DeclarationRecorder.isRecording else { return DeclarationRecorder.none }
    return DeclarationRecorder.recordAttribute(options, originalName: originalName)
  }
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
    let options: UInt8
    let originalName: String?
    if number == DeclarationRecorder.plain {
      (options, originalName) = (0, nil)
    } else if case .attribute(let recorded, let name)? = DeclarationRecorder.record(number) {
      (options, originalName) = (recorded, name)
    } else {
      fatalError("\(name)'s declaration was not recorded")
    }
    return AttributeDescription(
      name: name, valueType: attributeValueType, isOptional: isOptional,
      isUnique: options & AttributeDeclaration.unique != 0,
      preservesValueOnDeletion: options & AttributeDeclaration.preservesValueOnDeletion != 0,
      originalName: originalName, integerWidth: persistentValueType._integerWidth,
      isFloat32: persistentValueType._isFloat32)
  }

  static var persistentValueType: any PersistentValue.Type {
    AttributeStorage.storageType(of: Value.self)
  }
  static var valueOffset: Int { MemoryLayout<Self>.offset(of: \Self.value)! }
  static var slotOffset: Int { MemoryLayout<Self>.offset(of: \Self.slot)! }

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
