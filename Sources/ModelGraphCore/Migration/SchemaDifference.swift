/// One way a schema differs from another: the entity, the property, and what changed.
public struct SchemaDifference: Sendable, Hashable, CustomStringConvertible {
  /// What changed.
  public enum Change: Sendable, Hashable {
    /// The entity exists only in the newer schema.
    case entityAdded
    /// The entity exists only in the older schema.
    case entityRemoved
    /// The entity's parent changed (`nil` for a root).
    case parentChanged(from: String?, to: String?)
    /// The attribute exists only in the newer schema.
    case attributeAdded
    /// The attribute exists only in the older schema.
    case attributeRemoved
    /// The attribute was renamed through `originalName`.
    case attributeRenamed(from: String)
    /// The attribute's stored type changed (types printed as `String`, `Int?`, `[Date]`).
    case attributeTypeChanged(from: String, to: String)
    /// The Swift integer type of an integer attribute changed width, its sign kept (types
    /// printed as declared: `Int8`, `Int?`, `[UInt16]`); the stored 64-bit values stay.
    case attributeIntegerWidthChanged(from: String, to: String)
    /// A `Double` attribute became `Float` or the reverse (types printed as declared:
    /// `Float`, `Double?`, `[Float]`); the stored `Double` values stay.
    case attributeFloatWidthChanged(from: String, to: String)
    /// An option of the attribute changed (`unique`, `preserveValueOnDeletion`).
    case attributeOptionChanged(String)
    /// The relationship exists only in the newer schema.
    case relationshipAdded
    /// The relationship exists only in the older schema.
    case relationshipRemoved
    /// The relationship was renamed through `originalName`.
    case relationshipRenamed(from: String)
    /// Part of the relationship's definition changed (destination, cardinality, inverse,
    /// delete rule, count limits), described in a few words.
    case relationshipChanged(String)
    /// The entity's compound unique constraints changed (attribute names per constraint).
    case uniqueConstraintsChanged(from: [[String]], to: [[String]])
  }

  /// The entity concerned.
  public var entity: String
  /// The attribute or relationship concerned, if the change is about one.
  public var property: String?
  /// What changed.
  public var change: Change

  /// Makes a difference.
  public init(entity: String, property: String? = nil, change: Change) {
    self.entity = entity
    self.property = property
    self.change = change
  }

  /// `Entity.property: what changed`.
  public var description: String {
    let subject = entity + (property.map { ".\($0)" } ?? "")
    return "\(subject): \(changeDescription)"
  }

  private var changeDescription: String {
    switch change {
    case .entityAdded: "entity added"
    case .entityRemoved: "entity removed"
    case .parentChanged(let from, let to): "parent \(from ?? "none") became \(to ?? "none")"
    case .uniqueConstraintsChanged(let from, let to):
      "unique constraints \(Self.describe(from)) became \(Self.describe(to))"
    case .attributeAdded: "attribute added"
    case .attributeRemoved: "attribute removed"
    case .attributeRenamed(let from): "attribute renamed from \(from)"
    case .attributeTypeChanged(let from, let to): "attribute type \(from) became \(to)"
    case .attributeIntegerWidthChanged(let from, let to): "attribute type \(from) became \(to)"
    case .attributeFloatWidthChanged(let from, let to): "attribute type \(from) became \(to)"
    case .attributeOptionChanged(let option): "attribute option \(option)"
    case .relationshipAdded: "relationship added"
    case .relationshipRemoved: "relationship removed"
    case .relationshipRenamed(let from): "relationship renamed from \(from)"
    case .relationshipChanged(let what): "relationship \(what)"
    }
  }

  private static func describe(_ groups: [[String]]) -> String {
    groups.isEmpty
      ? "none" : groups.map { "(\($0.joined(separator: ", ")))" }.joined(separator: " ")
  }
}
