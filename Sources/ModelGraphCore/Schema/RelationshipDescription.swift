/// What deleting an object does to the objects its relationship points at.
public enum DeleteRule: String, Sendable, Hashable, CaseIterable {
  /// Delete the related objects too.
  case cascade
  /// Remove the deleted object from the related objects' inverse (the default).
  case nullify
  /// Refuse the save while the relationship is not empty.
  case deny
  /// Leave the related objects as they are.
  case noAction
}

/// A relationship of an entity to another entity's objects.
public struct RelationshipDescription: Sendable, Hashable {
  /// The property name.
  public var name: String
  /// The entity the relationship points at (its subclasses' objects are allowed too).
  public var destination: String
  /// Whether the relationship holds many objects (an array) or at most one.
  public var isToMany: Bool
  /// Whether a to-one relationship may be `nil`.
  public var isOptional: Bool
  /// The name of the inverse relationship on the destination, if one was declared.
  public var inverse: String?
  /// What deleting the owner does to the related objects.
  public var deleteRule: DeleteRule
  /// The fewest related objects a save accepts (to-many only; 0 means no minimum).
  public var minimumModelCount: Int
  /// The most related objects a save accepts (to-many only; 0 means no maximum).
  public var maximumModelCount: Int
  /// The name the relationship had in an earlier schema version, for migration.
  public var originalName: String?

  /// Describes a relationship.
  public init(
    name: String, destination: String, isToMany: Bool, isOptional: Bool = true,
    inverse: String? = nil, deleteRule: DeleteRule = .nullify, minimumModelCount: Int = 0,
    maximumModelCount: Int = 0, originalName: String? = nil
  ) {
    self.name = name
    self.destination = destination
    self.isToMany = isToMany
    self.isOptional = isOptional
    self.inverse = inverse
    self.deleteRule = deleteRule
    self.minimumModelCount = minimumModelCount
    self.maximumModelCount = maximumModelCount
    self.originalName = originalName
  }
}
