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
  @usableFromInline var initial: Value?
  /// The options, kept out of line (and only when there are any) so wrappers stay small.
  let declaration: AttributeDeclaration?

  /// An attribute without an initial value or options.
  public init() {
    declaration = nil
  }

  /// An attribute without an initial value.
  public init(_ options: Option..., originalName: String? = nil) {
    declaration = AttributeDeclaration(options: options, originalName: originalName)
  }

  /// An attribute with an initial value for new objects.
  public init(wrappedValue: Value, _ options: Option..., originalName: String? = nil) {
    self.initial = wrappedValue
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
      return owner.takeUnretainedValue()._unmanagedValue(slot: slot, initial: initial)
    }
    nonmutating set {
      guard let owner = owner?.takeUnretainedValue() else {
        preconditionFailure("@Attribute used outside a PersistentModel")
      }
      if let table = owner._table {
        table.column(slot, as: Value.Stored.self)[owner._row] = newValue.stored
        owner._didWrite(slot: slot)
      } else {
        owner._setUnmanagedValue(slot: slot, newValue.stored)
      }
    }
  }
}

/// The options of one `@Attribute` declaration.
final class AttributeDeclaration: Sendable {
  let options: [AttributeOption]
  let originalName: String?

  init?(options: [AttributeOption], originalName: String?) {
    guard !options.isEmpty || originalName != nil else { return nil }
    self.options = options
    self.originalName = originalName
  }
}

extension Attribute: _AttributeWrapper {
  static var valueSwiftType: Any.Type { Value.self }
  static var attributeValueType: ValueType { Value.valueType }
  static var isOptional: Bool { Value.isOptionalValue }
  static var storedType: any ColumnValue.Type { Value.Stored.self }

  static func bind(at address: UnsafeMutableRawPointer, owner: PersistentModel, slot: Int) {
    let wrapper = address.assumingMemoryBound(to: Self.self)
    wrapper.pointee.owner = Unmanaged.passUnretained(owner)
    wrapper.pointee.slot = slot
  }

  static func description(at address: UnsafeMutableRawPointer, name: String)
    -> AttributeDescription
  {
    let options = address.assumingMemoryBound(to: Self.self).pointee.declaration
    return AttributeDescription(
      name: name, valueType: Value.valueType, isOptional: Value.isOptionalValue,
      isUnique: options?.options.contains(.unique) ?? false,
      preservesValueOnDeletion: options?.options.contains(.preserveValueOnDeletion) ?? false,
      originalName: options?.originalName)
  }

  static func bindRow(at address: UnsafeMutableRawPointer, table: Unmanaged<Table>?, row: Int) {
    let wrapper = address.assumingMemoryBound(to: Self.self)
    wrapper.pointee.table = table
    wrapper.pointee.row = row
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
