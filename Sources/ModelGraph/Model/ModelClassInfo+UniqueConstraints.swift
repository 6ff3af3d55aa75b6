import ModelGraphCore

extension ModelClassInfo {
  /// The unique constraints this class declares in ``IndexedModel/indexes`` and its parent
  /// does not: attribute names, one group per ``ModelIndex/unique(_:_:_:)`` or
  /// ``ModelIndex/unique(_:)-(any KeyPath<Root, Value> & Sendable)``.
  ///
  /// - Throws: ``SchemaError`` when a key path names no attribute of the class.
  func declaredUniqueConstraints() throws -> [[String]] {
    let own = try Self.uniqueConstraints(of: modelClass, entityName: entityName)
    let inherited =
      try parentClass.map {
        try Self.uniqueConstraints(of: $0, entityName: ModelClassInfo.info(for: $0).entityName)
      } ?? []
    return own.filter { !inherited.contains($0) }
  }

  private static func uniqueConstraints(
    of modelClass: ModelObject.Type, entityName: String
  ) throws -> [[String]] {
    guard let indexed = modelClass as? any IndexedModel.Type else { return [] }
    var groups: [[String]] = []
    for index in indexed.indexes where index.isUnique {
      let names = try index.keyPaths.map { keyPath -> String in
        guard case .attribute(let name) = KeyPathResolution.property(keyPath) else {
          throw SchemaError(
            .invalidUniqueConstraint, entity: entityName,
            message:
              "unique constraint key path \(KeyPathResolution.name(keyPath)) does not name a persisted attribute"
          )
        }
        return name
      }
      if !groups.contains(names) { groups.append(names) }
    }
    return groups
  }
}
