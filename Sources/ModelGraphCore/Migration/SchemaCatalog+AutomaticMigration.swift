/// The differences between a stored schema and the code's, sorted into those a container
/// migrates by itself when it opens a file without a plan and those that need a decision.
public struct AutomaticMigration: Sendable, Hashable {
  /// The changes migrated without a plan: classes added, attributes added (with an initial
  /// value or optional) and removed, relationships added and removed (an existing one gaining
  /// one of them as its inverse), renames through `originalName`, delete rules, and a
  /// change of an integer attribute's width or between `Double` and `Float` (a narrower one
  /// checks the stored values).
  public var automatic: [SchemaDifference] = []
  /// The changes that need a plan: type and option changes, a changed parent, destination,
  /// cardinality or inverse, and a property removed beside one added of the same type (a
  /// rename without `originalName`, or a removal and an addition: only code can tell).
  public var needsPlan: [SchemaDifference] = []
  /// For each suspected rename, a sentence that names the fix.
  public var hints: [String] = []
}

extension SchemaCatalog {
  /// Sorts the differences from this (stored) catalog to `target` into those an automatic
  /// lightweight migration makes and those that need a plan. A stored entity that `target`
  /// lacks is neither: the file keeps it for classes registered later.
  ///
  /// - Complexity: O(entities + properties).
  public func automaticMigration(to target: SchemaCatalog) -> AutomaticMigration {
    var result = AutomaticMigration()
    let differences = differences(to: target).filter { $0.change != .entityRemoved }
    let renames = suspectedRenames(differences, target: target)
    result.hints = renames.hints
    for difference in differences {
      let isRename = difference.property.map {
        renames.properties.contains(PropertyName(entity: difference.entity, property: $0))
      }
      if isRename != true, Self.isAutomatic(difference.change) {
        result.automatic.append(difference)
      } else {
        result.needsPlan.append(difference)
      }
    }
    return result
  }

  private static func isAutomatic(_ change: SchemaDifference.Change) -> Bool {
    switch change {
    case .entityAdded, .attributeAdded, .attributeRemoved, .attributeRenamed, .relationshipAdded,
      .relationshipRemoved, .relationshipRenamed, .attributeIntegerWidthChanged,
      .attributeFloatWidthChanged:
      true
    case .relationshipChanged(let what):
      what.hasPrefix("inverse none became ") || what.hasPrefix("delete rule ")
    case .entityRemoved, .parentChanged, .attributeTypeChanged, .attributeOptionChanged,
      .uniqueConstraintsChanged:
      false
    }
  }

  /// Properties removed beside an added one of the same entity and kind with the same stored
  /// type (attributes) or destination (relationships), and a hint for each pair.
  private func suspectedRenames(_ differences: [SchemaDifference], target: SchemaCatalog)
    -> (properties: Set<PropertyName>, hints: [String])
  {
    var properties = Set<PropertyName>()
    var hints: [String] = []
    let byEntity = Dictionary(grouping: differences, by: \.entity)
    for entityName in byEntity.keys.sorted() {
      guard let old = entity(named: entityName), let new = target.entity(named: entityName),
        let changes = byEntity[entityName]
      else { continue }
      let names = { (change: SchemaDifference.Change) in
        changes.filter { $0.change == change }.compactMap(\.property)
      }
      func oldAttribute(_ name: String) -> AttributeDescription? {
        old.description.attributes.first { $0.name == name }
      }
      func newAttribute(_ name: String) -> AttributeDescription? {
        new.description.attributes.first { $0.name == name }
      }
      for removed in names(.attributeRemoved) {
        for added in names(.attributeAdded)
        where oldAttribute(removed)?.valueType == newAttribute(added)?.valueType {
          properties.insert(PropertyName(entity: entityName, property: removed))
          properties.insert(PropertyName(entity: entityName, property: added))
          hints.append(
            "\(entityName).\(added) may be \(removed) renamed: declare "
              + "@Attribute(originalName: \"\(removed)\") var \(added), or migrate with a plan")
        }
      }
      let oldDestination = { (name: String) in
        old.description.relationships.first { $0.name == name }?.destination
      }
      let newDestination = { (name: String) in
        new.description.relationships.first { $0.name == name }?.destination
      }
      for removed in names(.relationshipRemoved) {
        for added in names(.relationshipAdded)
        where oldDestination(removed) == newDestination(added) {
          properties.insert(PropertyName(entity: entityName, property: removed))
          properties.insert(PropertyName(entity: entityName, property: added))
          hints.append(
            "\(entityName).\(added) may be \(removed) renamed: declare "
              + "@Relationship(originalName: \"\(removed)\") var \(added), or migrate with a plan"
          )
        }
      }
    }
    return (properties, hints)
  }
}

/// A property of an entity, by name.
private struct PropertyName: Hashable {
  var entity: String
  var property: String
}
