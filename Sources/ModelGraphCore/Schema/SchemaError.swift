/// A schema that cannot be used: the class and property it concerns, and why.
public struct SchemaError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What kind of problem this is.
  public enum Code: String, Sendable, Hashable {
    /// A stored property has neither `@Attribute`, `@Relationship` nor `@Transient`.
    case unmarkedStoredProperty
    /// An attribute's Swift type cannot be stored.
    case unsupportedType
    /// A property name is declared twice in one class hierarchy.
    case duplicateProperty
    /// A parent entity is not known.
    case unknownParent
    /// A relationship names an unknown destination or inverse.
    case unknownDestination
    /// An entity of this name exists with a different definition.
    case conflictingEntity
    /// A key path does not name a persisted property.
    case unknownKeyPath
    /// A unique constraint is empty, repeats an attribute or names one the entity lacks.
    case invalidUniqueConstraint
    /// The type is the base class of model classes, not a model class of its own.
    case notAModelClass
  }

  /// What kind of problem this is.
  public var code: Code
  /// The class concerned.
  public var entity: String
  /// The property concerned, if any.
  public var property: String?
  /// A sentence for a person.
  public var message: String

  /// Makes an error.
  public init(_ code: Code, entity: String, property: String? = nil, message: String) {
    self.code = code
    self.entity = entity
    self.property = property
    self.message = message
  }

  /// `Entity.property: message`.
  public var description: String {
    "\(entity)\(property.map { ".\($0)" } ?? ""): \(message)"
  }
}
