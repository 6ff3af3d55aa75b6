/// A model class as the engine sees it: a name, an optional parent, and its own properties.
///
/// An entity inherits every attribute and relationship of its ancestors; ``SchemaCatalog``
/// resolves the inheritance into ``ResolvedEntity`` values.
public struct EntityDescription: Sendable, Hashable {
  /// The class name.
  public var name: String
  /// The parent entity's name, or `nil` for a root class.
  public var parent: String?
  /// The attributes this class declares itself, in declaration order.
  public var attributes: [AttributeDescription]
  /// The relationships this class declares itself, in declaration order.
  public var relationships: [RelationshipDescription]
  /// Groups of attributes (own or inherited, by name) whose values together belong to at most
  /// one object of this class and its descendants: the analogue of SwiftData's `#Unique`.
  ///
  /// A group with one attribute behaves like that attribute's `.unique` option. An object with
  /// `nil` in any attribute of a group never conflicts through that group.
  public var uniqueConstraints: [[String]]
  /// The indexes this class declares on its own or inherited attributes (ordered or hash,
  /// unique or not), in declaration order; descendants inherit them.
  ///
  /// Indexes are physical: they change how queries run, never what is stored, so two
  /// descriptions that differ only in their indexes describe the same data (see
  /// ``hasSameDefinition(as:)``).
  public var indexes: [IndexDefinition]

  /// Describes an entity.
  public init(
    name: String, parent: String? = nil, attributes: [AttributeDescription] = [],
    relationships: [RelationshipDescription] = [], uniqueConstraints: [[String]] = [],
    indexes: [IndexDefinition] = []
  ) {
    self.name = name
    self.parent = parent
    self.attributes = attributes
    self.relationships = relationships
    self.uniqueConstraints = uniqueConstraints
    self.indexes = indexes
  }
}
