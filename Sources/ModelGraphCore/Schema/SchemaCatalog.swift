/// The entities a store knows, with inheritance resolved; an immutable value.
///
/// A catalog only grows: registering a subclass the first time it is used yields a new catalog
/// with the old entities at the same indices.
public struct SchemaCatalog: Sendable {
  /// Every entity, by index.
  public private(set) var entities: [ResolvedEntity] = []
  /// The fields of the Codable types of composite attributes, by type name, as the Swift
  /// models declaring them recorded them (``Store/record(codableShapes:)``); a catalog read from
  /// a file older than format 5, or built by the runner alone, has none.
  public internal(set) var codableShapes: [String: CodableShape] = [:]
  private var indexByName: [String: Int] = [:]
  private var subtrees: [[Int]] = []

  /// An empty catalog.
  public init() {}

  /// The entity called `name`, if known.
  public func entity(named name: String) -> ResolvedEntity? {
    indexByName[name].map { entities[$0] }
  }

  /// The indices of `entity` and all its descendants, the entity first.
  ///
  /// - Complexity: O(1).
  public func subtree(of entity: Int) -> [Int] { subtrees[entity] }

  /// The catalog with `descriptions` added, parents before children in any order given.
  ///
  /// An entity already present with the same definition is kept as it is, with its indexes
  /// and default values: those are physical (``EntityDescription/hasSameDefinition(as:)``),
  /// and a difference in them alone is not a conflict.
  /// - Throws: ``SchemaError`` for an unknown parent, a property declared twice in a hierarchy,
  ///   or a name reused with a different definition.
  public func adding(_ descriptions: [EntityDescription]) throws -> SchemaCatalog {
    var result = self
    var pending = descriptions
    while !pending.isEmpty {
      let before = pending.count
      pending = try pending.filter { description in
        if let existing = result.entity(named: description.name) {
          guard existing.description.hasSameDefinition(as: description) else {
            throw SchemaError(
              .conflictingEntity, entity: description.name,
              message: "entity \(description.name) differs from the stored one: "
                + existing.description.differences(from: description).joined(separator: "; "))
          }
          return false
        }
        if let parent = description.parent, result.entity(named: parent) == nil {
          return true
        }
        try result.append(description)
        return false
      }
      if pending.count == before, let orphan = pending.first {
        throw SchemaError(
          .unknownParent, entity: orphan.name,
          message: "parent entity '\(orphan.parent ?? "")' is not part of the schema")
      }
    }
    return result
  }

  private mutating func append(_ description: EntityDescription) throws {
    let parent = description.parent.flatMap { entity(named: $0) }
    var seen = Set(
      (parent?.attributes.map(\.name) ?? []) + (parent?.relationships.map(\.name) ?? []))
    for name in description.attributes.map(\.name) + description.relationships.map(\.name) {
      guard seen.insert(name).inserted else {
        throw SchemaError(
          .duplicateProperty, entity: description.name, property: name,
          message: "'\(name)' is declared twice in the class hierarchy")
      }
    }
    try Self.checkUniqueConstraints(of: description, parent: parent)
    try Self.checkIntegerWidths(of: description)
    let resolved = ResolvedEntity(index: entities.count, description: description, parent: parent)
    entities.append(resolved)
    indexByName[description.name] = resolved.index
    subtrees.append([resolved.index])
    for ancestor in resolved.lineage.dropLast() {
      subtrees[ancestor].append(resolved.index)
    }
  }

  /// Each attribute's ``AttributeDescription/integerWidth`` narrows its integer type and
  /// ``AttributeDescription/isFloat32`` its `Double` type, and its default value is a value of
  /// that narrower type.
  private static func checkIntegerWidths(of description: EntityDescription) throws {
    for attribute in description.attributes where attribute.hasNarrowerType {
      if let width = attribute.integerWidth, !attribute.hasValidIntegerWidth {
        throw SchemaError(
          .unsupportedType, entity: description.name, property: attribute.name,
          message: "'\(attribute.name)' stores \(attribute.valueType), which \(width.rawValue) "
            + "does not narrow")
      }
      guard attribute.hasValidFloatWidth else {
        throw SchemaError(
          .unsupportedType, entity: description.name, property: attribute.name,
          message: "'\(attribute.name)' stores \(attribute.declaredTypeName), which Float does "
            + "not narrow")
      }
      if let value = attribute.defaultValue, let problem = attribute.widthProblem(value) {
        throw SchemaError(
          .unsupportedType, entity: description.name, property: attribute.name,
          message: "the default value of '\(attribute.name)' does not fit: \(problem)")
      }
    }
  }

  private static func checkUniqueConstraints(
    of description: EntityDescription, parent: ResolvedEntity?
  ) throws {
    let names = Set((parent?.attributes ?? []).map(\.name) + description.attributes.map(\.name))
    for constraint in description.uniqueConstraints {
      let listed = constraint.joined(separator: ", ")
      guard !constraint.isEmpty else {
        throw SchemaError(
          .invalidUniqueConstraint, entity: description.name,
          message: "a unique constraint names no attribute")
      }
      if let unknown = constraint.first(where: { !names.contains($0) }) {
        throw SchemaError(
          .invalidUniqueConstraint, entity: description.name, property: unknown,
          message:
            "unique constraint (\(listed)) names '\(unknown)', not an attribute of the entity")
      }
      guard Set(constraint).count == constraint.count else {
        throw SchemaError(
          .invalidUniqueConstraint, entity: description.name,
          message: "unique constraint (\(listed)) repeats an attribute")
      }
    }
  }
}
