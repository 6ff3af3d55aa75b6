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

  /// Describes an attribute.
  public init(
    name: String, valueType: ValueType, isOptional: Bool = false, isUnique: Bool = false,
    preservesValueOnDeletion: Bool = false, originalName: String? = nil
  ) {
    self.name = name
    self.valueType = valueType
    self.isOptional = isOptional
    self.isUnique = isUnique
    self.preservesValueOnDeletion = preservesValueOnDeletion
    self.originalName = originalName
  }

  /// The Swift type the attribute's column stores.
  public var storageType: any ColumnValue.Type { valueType.storageType(isOptional: isOptional) }
}
