import ModelGraphCore

/// The index definitions of each model class, resolved from its declarations once.
enum ModelIndexCatalog {
  private static let cache = ThreadCache<ObjectIdentifier, [IndexDefinition]>()

  /// The indexes of `modelClass`'s table: those declared by it and its ancestors
  /// (``IndexedModel``), and a unique hash index per `@Attribute(.unique)`.
  ///
  /// A declaration whose key path names no persisted attribute is ignored.
  /// - Complexity: O(1), without a lock, after the first call for a class.
  static func definitions(for modelClass: ModelObject.Type, entity: ResolvedEntity)
    -> [IndexDefinition]
  {
    cache.value(for: ObjectIdentifier(modelClass)) { resolve(modelClass, entity: entity) }
  }

  private static func resolve(_ modelClass: ModelObject.Type, entity: ResolvedEntity)
    -> [IndexDefinition]
  {
    var found: [IndexDefinition] = []
    func add(_ definition: IndexDefinition) {
      if !found.contains(definition) { found.append(definition) }
    }
    var next: ModelObject.Type? = modelClass
    while let current = next {
      if let indexed = current as? any IndexedModel.Type {
        for index in indexed.indexes where index.keyPaths.count == 1 {
          guard case .attribute(let name) = KeyPathResolution.property(index.keyPath) else {
            continue
          }
          add(
            IndexDefinition(
              index.kind == .ordered ? .ordered : .hash, on: name, isUnique: index.isUnique))
        }
      }
      next = ModelClassInfo.info(for: current).parentClass
    }
    for attribute in entity.attributes where attribute.isUnique {
      let definition = IndexDefinition(.hash, on: attribute.name, isUnique: true)
      if !found.contains(where: { $0.attribute == attribute.name && $0.kind == .hash }) {
        add(definition)
      }
    }
    return found.filter { definition in
      entity.attributeSlot(named: definition.attribute).map { entity.attributes[$0].isIndexable }
        ?? false
    }
  }
}
