/// A persisted attribute of an entity: its name, storage type and options.
public struct AttributeDescription: Sendable, Hashable {
  /// The property name.
  public var name: String
  /// The storage type of the values.
  public var valueType: ValueType
  /// Whether the attribute may hold `nil`.
  public var isOptional: Bool
  /// Whether values must be unique across the entity's hierarchy (enforced on save).
  public var isUnique: Bool
  /// Whether a deleted object's value stays readable from its deletion record.
  public var preservesValueOnDeletion: Bool
  /// The name the attribute had in an earlier schema version, for migration.
  public var originalName: String?
  /// The value a new object holds when none is given (`n: Int = 7` in the runner,
  /// `@Attribute var n = 7` in Swift), or `nil` when the declaration gives none.
  ///
  /// A default is part of the declaration, not of the data's meaning: two descriptions that
  /// differ only in their defaults describe the same stored data (see
  /// ``EntityDescription/hasSameDefinition(as:)``).
  public var defaultValue: ModelValue?
  /// The Swift integer type narrower than 64 bits the attribute's integers (or the elements of
  /// its array) are declared with, or `nil` for 64 bits and every other type.
  ///
  /// The values are stored as 64 bits whatever the width; a save that would store one outside
  /// the type's range fails with a ``ConstraintViolation/Rule/outOfRange`` violation, so a
  /// process that declares the narrower type can read every value.
  public var integerWidth: QueryIntegerWidth?
  /// Whether the attribute's `Double` values (or the elements of its array) are declared as
  /// Swift `Float` (32 bits).
  ///
  /// The values are stored as `Double`s; a save that would store one that is no `Float` value
  /// (`0.1`, `1e300`) fails with a ``ConstraintViolation/Rule/outOfRange`` violation, so the
  /// process that declares `Float` reads back exactly what was saved, and a query compares the
  /// values Swift compares.
  public var isFloat32: Bool

  /// Describes an attribute.
  public init(
    name: String, valueType: ValueType, isOptional: Bool = false, isUnique: Bool = false,
    preservesValueOnDeletion: Bool = false, originalName: String? = nil,
    defaultValue: ModelValue? = nil, integerWidth: QueryIntegerWidth? = nil,
    isFloat32: Bool = false
  ) {
    self.name = name
    self.valueType = valueType
    self.isOptional = isOptional
    self.isUnique = isUnique
    self.preservesValueOnDeletion = preservesValueOnDeletion
    self.originalName = originalName
    self.defaultValue = defaultValue
    self.integerWidth = integerWidth
    self.isFloat32 = isFloat32
  }

  /// The Swift type the attribute's column stores.
  public var storageType: any ColumnValue.Type { valueType.storageType(isOptional: isOptional) }
}
