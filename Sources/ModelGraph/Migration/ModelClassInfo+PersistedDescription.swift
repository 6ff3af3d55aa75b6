import ModelGraphCore

extension ModelClassInfo {
  /// The entity this class declares, with what a file's schema carries beyond the data's
  /// meaning: the indexes the class declares itself (``IndexedModel``) and the initial values
  /// of its own attributes as default values.
  ///
  /// Only an initial value that two new objects share is a default: one that differs from
  /// object to object (`= Date()`, `= UUID()`) is not recorded, or the file's schema would
  /// change with every process that opens it.
  ///
  /// - Throws: The first ``SchemaError`` found in the class or its ancestors.
  func persistedDescription() throws -> EntityDescription {
    var description = try entityDescription()
    let inherited = Set(parentClass.map(ModelClassInfo.declaredIndexes(ofChain:)) ?? [])
    description.indexes = ModelClassInfo.declaredIndexes(ofChain: modelClass).filter {
      !inherited.contains($0) && description.attributes.contains(named: $0.attribute)
    }
    let initial = ModelSchema.initialValues(of: self)
    let again = ModelSchema.initialValues(of: self, in: modelClass.init())
    for slot in description.attributes.indices {
      let name = description.attributes[slot].name
      if let value = initial[name], again[name] == value {
        description.attributes[slot].defaultValue = value
      }
    }
    return description
  }

  /// The one-attribute indexes `type` and its ancestors declare, the class's first, each once.
  ///
  /// A declaration whose key path names no persisted attribute is left out.
  private static func declaredIndexes(ofChain type: ModelObject.Type) -> [IndexDefinition] {
    var found: [IndexDefinition] = []
    var next: ModelObject.Type? = type
    while let current = next {
      if let indexed = current as? any IndexedModel.Type {
        for index in indexed.indexes where index.keyPaths.count == 1 {
          guard case .attribute(let name) = KeyPathResolution.property(index.keyPath) else {
            continue
          }
          let definition = IndexDefinition(
            index.kind == .ordered ? .ordered : .hash, on: name, isUnique: index.isUnique)
          if !found.contains(definition) { found.append(definition) }
        }
      }
      next = ModelClassInfo.info(for: current).parentClass
    }
    return found
  }
}

extension [AttributeDescription] {
  fileprivate func contains(named name: String) -> Bool { contains { $0.name == name } }
}
