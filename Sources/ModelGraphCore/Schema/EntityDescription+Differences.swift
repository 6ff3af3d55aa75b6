extension EntityDescription {
  /// What changes from this description to `other`, one phrase per difference.
  public func differences(from other: EntityDescription) -> [String] {
    var result: [String] = []
    if parent != other.parent {
      result.append("parent \(parent ?? "none") became \(other.parent ?? "none")")
    }
    let mine = Dictionary(attributes.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    let theirs = Dictionary(other.attributes.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    for attribute in attributes where theirs[attribute.name] == nil {
      result.append("attribute \(attribute.name) was removed")
    }
    for attribute in other.attributes {
      guard let old = mine[attribute.name] else {
        result.append("attribute \(attribute.name) was added")
        continue
      }
      if old != attribute {
        result.append(
          "attribute \(attribute.name) changed from \(old.declaredTypeName)"
            + " to \(attribute.declaredTypeName) or in its options")
      }
    }
    if attributes.map(\.name) != other.attributes.map(\.name), result.isEmpty {
      result.append("attributes were reordered")
    }
    let oldRelationships = relationships.map(\.name)
    let newRelationships = other.relationships.map(\.name)
    for name in oldRelationships where !newRelationships.contains(name) {
      result.append("relationship \(name) was removed")
    }
    for name in newRelationships where !oldRelationships.contains(name) {
      result.append("relationship \(name) was added")
    }
    for relationship in other.relationships {
      if let old = relationships.first(where: { $0.name == relationship.name }), old != relationship
      {
        result.append("relationship \(relationship.name) changed")
      }
    }
    if uniqueConstraints != other.uniqueConstraints {
      let describe = { (groups: [[String]]) in
        groups.isEmpty
          ? "none" : groups.map { "(\($0.joined(separator: ", ")))" }.joined(separator: " ")
      }
      result.append(
        "unique constraints changed from \(describe(uniqueConstraints)) to \(describe(other.uniqueConstraints))"
      )
    }
    return result.isEmpty ? ["the definitions differ"] : result
  }
}
