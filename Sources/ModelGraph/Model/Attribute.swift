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
  public enum Option: Sendable, Hashable {
    /// Values must be unique across the class hierarchy (checked on save).
    case unique
    /// A deleted object's value stays readable from its deletion record.
    case preserveValueOnDeletion
  }

  @usableFromInline unowned(unsafe) var owner: PersistentModel?
  @usableFromInline var slot = -1
  @usableFromInline var initial: Value?
  let options: [Option]
  let originalName: String?

  /// An attribute without an initial value or options.
  public init() {
    self.options = []
    self.originalName = nil
  }

  /// An attribute without an initial value.
  public init(_ options: Option..., originalName: String? = nil) {
    self.options = options
    self.originalName = originalName
  }

  /// An attribute with an initial value for new objects.
  public init(wrappedValue: Value, _ options: Option..., originalName: String? = nil) {
    self.initial = wrappedValue
    self.options = options
    self.originalName = originalName
  }

  /// The value, read from and written to the context's table once the object is managed.
  ///
  /// - Complexity: O(1).
  @inlinable
  public var wrappedValue: Value {
    get {
      guard let owner else { preconditionFailure("@Attribute used outside a PersistentModel") }
      if let table = owner._table {
        return Value.fromStored(table.column(slot, as: Value.Stored.self)[owner._row])
      }
      return owner._unmanagedValue(slot: slot, initial: initial)
    }
    nonmutating set {
      guard let owner else { preconditionFailure("@Attribute used outside a PersistentModel") }
      if let table = owner._table {
        table.column(slot, as: Value.Stored.self)[owner._row] = newValue.stored
        owner._didWrite(slot: slot)
      } else {
        owner._setUnmanagedValue(slot: slot, newValue.stored)
      }
    }
  }
}

extension Attribute: _AttributeWrapper {
  static var valueSwiftType: Any.Type { Value.self }
  static var attributeValueType: ValueType { Value.valueType }
  static var isOptional: Bool { Value.isOptionalValue }
  static var storedType: any ColumnValue.Type { Value.Stored.self }

  static func bind(at address: UnsafeMutableRawPointer, owner: PersistentModel, slot: Int) {
    let wrapper = address.assumingMemoryBound(to: Self.self)
    wrapper.pointee.owner = owner
    wrapper.pointee.slot = slot
  }

  static func description(at address: UnsafeMutableRawPointer, name: String)
    -> AttributeDescription
  {
    let wrapper = address.assumingMemoryBound(to: Self.self).pointee
    return AttributeDescription(
      name: name, valueType: Value.valueType, isOptional: Value.isOptionalValue,
      isUnique: wrapper.options.contains(.unique),
      preservesValueOnDeletion: wrapper.options.contains(.preserveValueOnDeletion),
      originalName: wrapper.originalName)
  }

  static func initialValue(at address: UnsafeMutableRawPointer) -> (any ColumnValue)? {
    address.assumingMemoryBound(to: Self.self).pointee.initial?.stored
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
