extension SchemaCatalog {
  /// What changes from this catalog to `target`, entity by entity, with renames through
  /// `originalName` recognized.
  ///
  /// Only changes of meaning count: declaration order and `originalName` alone are not
  /// differences (a migration maps properties by name whatever their order).
  /// - Complexity: O(entities + properties).
  public func differences(to target: SchemaCatalog) -> [SchemaDifference] {
    var result: [SchemaDifference] = []
    for entity in entities where target.entity(named: entity.name) == nil {
      result.append(SchemaDifference(entity: entity.name, change: .entityRemoved))
    }
    for entity in target.entities {
      guard let old = self.entity(named: entity.name) else {
        result.append(SchemaDifference(entity: entity.name, change: .entityAdded))
        continue
      }
      if old.description.parent != entity.description.parent {
        result.append(
          SchemaDifference(
            entity: entity.name,
            change: .parentChanged(from: old.description.parent, to: entity.description.parent)))
      }
      result += attributeDifferences(old, entity)
      result += relationshipDifferences(old, entity, target)
      let before = old.description.uniqueConstraints
      let after = entity.description.uniqueConstraints
      if Set(before) != Set(after) {
        result.append(
          SchemaDifference(
            entity: entity.name, change: .uniqueConstraintsChanged(from: before, to: after)))
      }
    }
    return result
  }

  private func attributeDifferences(_ old: ResolvedEntity, _ new: ResolvedEntity)
    -> [SchemaDifference]
  {
    var result: [SchemaDifference] = []
    let oldAttributes = old.description.attributes
    let pairs = PropertyPairing(
      old: oldAttributes.map(\.name),
      new: new.description.attributes.map { ($0.name, $0.originalName) })
    for name in pairs.removed {
      result.append(SchemaDifference(entity: new.name, property: name, change: .attributeRemoved))
    }
    for (index, attribute) in new.description.attributes.enumerated() {
      let difference = { SchemaDifference(entity: new.name, property: attribute.name, change: $0) }
      guard let oldIndex = pairs.oldIndex[index] else {
        result.append(difference(.attributeAdded))
        continue
      }
      let previous = oldAttributes[oldIndex]
      if previous.name != attribute.name {
        result.append(difference(.attributeRenamed(from: previous.name)))
      }
      if previous.valueType != attribute.valueType || previous.isOptional != attribute.isOptional {
        result.append(
          difference(.attributeTypeChanged(from: previous.typeName, to: attribute.typeName)))
      } else if previous.integerWidth != attribute.integerWidth {
        result.append(
          difference(
            .attributeIntegerWidthChanged(
              from: previous.declaredTypeName, to: attribute.declaredTypeName)))
      } else if previous.isFloat32 != attribute.isFloat32 {
        result.append(
          difference(
            .attributeFloatWidthChanged(
              from: previous.declaredTypeName, to: attribute.declaredTypeName)))
      }
      if previous.isUnique != attribute.isUnique {
        result.append(
          difference(
            .attributeOptionChanged(attribute.isUnique ? "unique added" : "unique removed")))
      }
      if previous.preservesValueOnDeletion != attribute.preservesValueOnDeletion {
        let change = attribute.preservesValueOnDeletion ? "added" : "removed"
        result.append(difference(.attributeOptionChanged("preserveValueOnDeletion \(change)")))
      }
    }
    return result
  }

  private func relationshipDifferences(
    _ old: ResolvedEntity, _ new: ResolvedEntity, _ target: SchemaCatalog
  ) -> [SchemaDifference] {
    var result: [SchemaDifference] = []
    let oldRelationships = old.description.relationships
    let pairs = PropertyPairing(
      old: oldRelationships.map(\.name),
      new: new.description.relationships.map { ($0.name, $0.originalName) })
    for name in pairs.removed {
      result.append(
        SchemaDifference(entity: new.name, property: name, change: .relationshipRemoved))
    }
    let inherited = new.relationships.count - new.description.relationships.count
    let oldInherited = old.relationships.count - oldRelationships.count
    for (index, relationship) in new.description.relationships.enumerated() {
      let difference = {
        SchemaDifference(entity: new.name, property: relationship.name, change: $0)
      }
      guard let oldIndex = pairs.oldIndex[index] else {
        result.append(difference(.relationshipAdded))
        continue
      }
      let previous = oldRelationships[oldIndex]
      if previous.name != relationship.name {
        result.append(difference(.relationshipRenamed(from: previous.name)))
      }
      let oldInverse = effectiveInverse(of: oldInherited + oldIndex, in: old)
      let newInverse = target.effectiveInverse(of: inherited + index, in: new)
      let sameInverse = SchemaCatalog.sameInverse(
        old: (self, old, oldInherited + oldIndex), new: (target, new, inherited + index))
      for change in previous.changes(
        to: relationship, inverse: sameInverse ? nil : (oldInverse, newInverse))
      {
        result.append(difference(.relationshipChanged(change)))
      }
    }
    return result
  }

  /// Whether relationship `slot` of an entity pairs with the same inverse in both catalogs
  /// (whichever side declares it, the newer inverse possibly renamed from the older).
  static func sameInverse(
    old: (SchemaCatalog, ResolvedEntity, Int), new: (SchemaCatalog, ResolvedEntity, Int)
  ) -> Bool {
    let oldInverse = old.0.effectiveInverse(of: old.2, in: old.1)
    guard let newInverse = new.0.effectiveInverse(of: new.2, in: new.1) else {
      return oldInverse == nil
    }
    let destination = new.0.entity(named: new.1.relationships[new.2].destination)
    let original = destination?.relationships.first { $0.name == newInverse }?.originalName
    return oldInverse == newInverse || (oldInverse != nil && oldInverse == original)
  }

  /// The name of the inverse of relationship `slot` of `entity`, whichever side declared it.
  func effectiveInverse(of slot: Int, in entity: ResolvedEntity) -> String? {
    guard let destination = self.entity(named: entity.relationships[slot].destination),
      let inverse = inverseSlot(of: slot, in: entity.index, target: destination.index)
    else { return nil }
    return destination.relationships[inverse].name
  }
}

extension AttributeDescription {
  /// The type as a declaration prints it: `String`, `Int?`, `[Date]`, `Int8`.
  var typeName: String { declaredTypeName }
}

extension RelationshipDescription {
  /// The parts of the definition that differ from `other`, in a few words each.
  func changes(to other: RelationshipDescription, inverse: (String?, String?)?) -> [String] {
    var result: [String] = []
    if destination != other.destination {
      result.append("destination \(destination) became \(other.destination)")
    }
    if isToMany != other.isToMany {
      result.append(isToMany ? "to-many became to-one" : "to-one became to-many")
    }
    if let (old, new) = inverse {
      result.append("inverse \(old ?? "none") became \(new ?? "none")")
    }
    if deleteRule != other.deleteRule {
      result.append("delete rule \(deleteRule) became \(other.deleteRule)")
    }
    if minimumModelCount != other.minimumModelCount || maximumModelCount != other.maximumModelCount
    {
      result.append(
        "count limits \(minimumModelCount)...\(maximumModelCount) became "
          + "\(other.minimumModelCount)...\(other.maximumModelCount)")
    }
    return result
  }
}

/// Pairs the properties of a newer declaration with the older one's: by name, or else by the
/// newer property's `originalName`.
public struct PropertyPairing: Sendable {
  /// For each newer property (by position), the position of its older counterpart.
  public var oldIndex: [Int?]
  /// The older properties without a newer counterpart.
  public var removed: [String]

  /// Pairs the `new` properties (name and original name, in order) with the `old` names.
  public init(old: [String], new: [(name: String, originalName: String?)]) {
    let positions = Dictionary(old.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
    let newNames = Set(new.map(\.name))
    var used = Set<Int>()
    oldIndex = new.map { property in
      if let index = positions[property.name] {
        used.insert(index)
        return index
      }
      guard let original = property.originalName, !newNames.contains(original),
        let index = positions[original], !used.contains(index)
      else { return nil }
      used.insert(index)
      return index
    }
    removed = old.enumerated().filter { !used.contains($0.offset) }.map(\.element)
  }
}
