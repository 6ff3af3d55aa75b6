/// An option of an `@Attribute` declaration, as in SwiftData.
public enum AttributeOption: Sendable, Hashable {
  /// Values must be unique across the class hierarchy (checked on save).
  case unique
  /// A deleted object's value stays readable from its deletion record.
  case preserveValueOnDeletion
}

/// Marks a stored property of a model class as a persisted attribute.
///
/// ```swift
/// @Attribute var name: String
/// @Attribute(.unique) var identifier: UUID
/// @Attribute(.preserveValueOnDeletion) var auditCode: String?
/// @Attribute(originalName: "title") var name: String
/// @Attribute var visits = 0
/// ```
/// The value type must conform to ``PersistentValue``. A property declared without an initial
/// value must be set before the object is saved (optionals default to `nil`).
@propertyWrapper
public struct Attribute<Value: PersistentValue> {
  /// An option of an attribute, as in SwiftData.
  public typealias Option = AttributeOption

  /// The object the wrapper is stored in; unretained, since the object owns the wrapper.
  @usableFromInline var owner: Unmanaged<PersistentModel>?
  /// The owner's table and row while it is managed, copied here so reads touch only the wrapper.
  @usableFromInline var table: Unmanaged<Table>?
  @usableFromInline var row = 0
  @usableFromInline var slot = -1
  /// The value while the owner has no row (before it is inserted); starts as the declared
  /// initial value.
  @usableFromInline var value: Value?
  /// The options and original name; a plain value, so making an object allocates nothing for
  /// its declarations.
  @usableFromInline let declaration: AttributeDeclaration

  /// An attribute without an initial value or options.
  @inlinable
  public init() {
    declaration = AttributeDeclaration()
  }

  /// An attribute without an initial value.
  @inlinable
  public init(_ options: Option..., originalName: String? = nil) {
    declaration = AttributeDeclaration(options: options, originalName: originalName)
  }

  /// An attribute with an initial value for new objects.
  @inlinable
  public init(wrappedValue: Value, _ options: Option..., originalName: String? = nil) {
    self.value = wrappedValue
    declaration = AttributeDeclaration(options: options, originalName: originalName)
  }

  /// The value, read from and written to the context's table once the object is managed.
  ///
  /// - Complexity: O(1).
  @inlinable
  public var wrappedValue: Value {
    get {
      if let table {
        // The context keeps its tables alive while it manages the owner: no retain needed.
        let (slot, row) = (self.slot, self.row)
        return table._withUnsafeGuaranteedRef {
          Value.fromStored($0.value(slot, row: row, as: Value.Stored.self))
        }
      }
      guard let owner else { preconditionFailure("@Attribute used outside a PersistentModel") }
      return owner.takeUnretainedValue()._unmanagedValue(slot: slot, value: value)
    }
    nonmutating set {
      guard let owner = owner?.takeUnretainedValue() else {
        preconditionFailure("@Attribute used outside a PersistentModel")
      }
      if let table = owner._table {
        table.column(slot, as: Value.Stored.self)[owner._row] = newValue.stored
        owner._didWrite(slot: slot)
      } else {
        // The owner has no row: the value lives in the wrapper stored inside the owner.
        owner._unmanagedWrapperAddress(slot: slot).assumingMemoryBound(to: Self.self).pointee
          .value = newValue
      }
    }
  }
}

/// The fixed-size head of every `Attribute<Value>`: `owner`, `table`, `row` and `slot` come
/// before the generic `value`, so their offsets do not depend on `Value` and binding writes
/// them without generic code (see ``WrapperLayout``).
enum AttributeLayout {
  static let owner = MemoryLayout<Attribute<Int8>>.offset(of: \.owner)!
  static let table = MemoryLayout<Attribute<Int8>>.offset(of: \.table)!
  static let row = MemoryLayout<Attribute<Int8>>.offset(of: \.row)!
  static let slot = MemoryLayout<Attribute<Int8>>.offset(of: \.slot)!
}

/// The options of one `@Attribute` declaration.
@usableFromInline
struct AttributeDeclaration {
  /// Whether `.unique` was given.
  @usableFromInline let isUnique: Bool
  /// Whether `.preserveValueOnDeletion` was given.
  @usableFromInline let preservesValueOnDeletion: Bool
  @usableFromInline let originalName: String?

  @inlinable
  init() {
    isUnique = false
    preservesValueOnDeletion = false
    originalName = nil
  }

  @inlinable
  init(options: [AttributeOption], originalName: String?) {
    isUnique = options.contains(.unique)
    preservesValueOnDeletion = options.contains(.preserveValueOnDeletion)
    self.originalName = originalName
  }
}

extension Attribute: _AttributeWrapper {
  static var valueSwiftType: Any.Type { Value.self }
  static var attributeValueType: ValueType { Value.valueType }
  static var isOptional: Bool { Value.isOptionalValue }
  static var storedType: any ColumnValue.Type { Value.Stored.self }

  static func description(at address: UnsafeMutableRawPointer, name: String)
    -> AttributeDescription
  {
    let declaration = address.assumingMemoryBound(to: Self.self).pointee.declaration
    return AttributeDescription(
      name: name, valueType: Value.valueType, isOptional: Value.isOptionalValue,
      isUnique: declaration.isUnique,
      preservesValueOnDeletion: declaration.preservesValueOnDeletion,
      originalName: declaration.originalName)
  }

  static var persistentValueType: any PersistentValue.Type { Value.self }
  static var valueOffset: Int { MemoryLayout<Self>.offset(of: \Self.value)! }

  static func restoreValue(_ stored: any ColumnValue, at address: UnsafeMutableRawPointer) {
    address.assumingMemoryBound(to: Self.self).pointee.value = Value.fromStored(
      stored as! Value.Stored)
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
