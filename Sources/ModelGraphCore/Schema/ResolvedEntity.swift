/// An entity with its inheritance resolved: every attribute and relationship, inherited first.
///
/// An inherited property has the same slot in every entity of a hierarchy, so code that reads
/// `Trip.name` reads the same column index in the Trip, BusinessTrip and PersonalTrip tables.
public final class ResolvedEntity: Sendable {
  /// The entity's position in its ``SchemaCatalog``; also its table's position in a store version.
  public let index: Int
  /// The description it was resolved from.
  public let description: EntityDescription
  /// The parent entity's index, or `nil` for a root.
  public let parentIndex: Int?
  /// The indices of this entity and its ancestors, root first.
  public let lineage: [Int]
  /// Every attribute, inherited ones first; an attribute's position is its slot.
  public let attributes: [AttributeDescription]
  /// Every relationship, inherited ones first; a relationship's position is its slot.
  public let relationships: [RelationshipDescription]
  /// Every compound unique constraint that applies to the entity, inherited ones first.
  public let uniqueConstraints: [UniqueConstraint]
  /// The entity's unique rules: one per unique attribute (declared by the entity that
  /// declares the attribute), then its ``uniqueConstraints``, each rule once.
  public let uniqueRules: [UniqueConstraint]
  /// The attribute names by slot, shared by the updates a save records for the entity.
  let attributeNames: CommittedChange.AttributeNames
  /// The delete rule of each relationship, by slot: read once per deleted object, without
  /// copying the relationships' descriptions.
  let deleteRules: [DeleteRule]
  /// The slots of the attributes marked to be preserved on deletion.
  let preservedSlots: [Int]
  /// The slots of the attributes declared with a type narrower than their storage type: an
  /// integer narrower than 64 bits (``AttributeDescription/integerWidth``) or `Float`
  /// (``AttributeDescription/isFloat32``).
  let narrowSlots: [Int]
  private let attributeSlots: [String: Int]
  private let relationshipSlots: [String: Int]

  init(index: Int, description: EntityDescription, parent: ResolvedEntity?) {
    self.index = index
    self.description = description
    self.parentIndex = parent?.index
    self.lineage = (parent?.lineage ?? []) + [index]
    let attributes = (parent?.attributes ?? []) + description.attributes
    self.attributes = attributes
    let relationships = (parent?.relationships ?? []) + description.relationships
    self.relationships = relationships
    self.deleteRules = relationships.map(\.deleteRule)
    self.attributeNames = CommittedChange.AttributeNames(attributes.map(\.name))
    self.preservedSlots = attributes.indices.filter { attributes[$0].preservesValueOnDeletion }
    self.narrowSlots = attributes.indices.filter { attributes[$0].hasNarrowerType }
    self.attributeSlots = Dictionary(
      attributes.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    self.relationshipSlots = Dictionary(
      relationships.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    let slots = attributeSlots
    self.uniqueConstraints =
      (parent?.uniqueConstraints ?? [])
      + description.uniqueConstraints.map { names in
        UniqueConstraint(declaringEntity: index, slots: names.compactMap { slots[$0] })
      }
    let inherited = parent?.attributes.count ?? 0
    var rules: [UniqueConstraint] = []
    for slot in attributes.indices where attributes[slot].isUnique {
      // An inherited attribute is declared where the parent's rule for it says.
      let declaring =
        slot < inherited
        ? parent?.uniqueRules.first { $0.slots == [slot] }?.declaringEntity ?? index : index
      rules.append(UniqueConstraint(declaringEntity: declaring, slots: [slot]))
    }
    for rule in uniqueConstraints where !rules.contains(rule) { rules.append(rule) }
    self.uniqueRules = rules
  }

  /// The class name.
  public var name: String { description.name }

  /// The slot of the attribute called `name`, if the entity has one.
  public func attributeSlot(named name: String) -> Int? { attributeSlots[name] }

  /// The slot of the relationship called `name`, if the entity has one.
  public func relationshipSlot(named name: String) -> Int? { relationshipSlots[name] }

  /// Whether this entity is `other` or descends from it.
  public func isKind(of other: ResolvedEntity) -> Bool { lineage.contains(other.index) }
}
