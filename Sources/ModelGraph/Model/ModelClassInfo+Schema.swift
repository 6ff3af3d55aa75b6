import ModelGraphCore

extension ModelClassInfo {
  /// The entity this class declares: its own attributes and relationships, and its parent.
  ///
  /// - Throws: The first ``SchemaError`` found in the class or its ancestors.
  func entityDescription() throws -> EntityDescription {
    if let problem = problems.first { throw problem }
    let (attributes, declarations) = withPrototype { prototype in
      let base = Unmanaged.passUnretained(prototype).toOpaque()
      let attributes = attributeWrappers.dropFirst(inheritedAttributeCount).map {
        $0.type.description(at: base + $0.offset, name: $0.name)
      }
      let declarations = relationshipWrappers.dropFirst(inheritedRelationshipCount).map {
        ($0, $0.type.declaration(at: base + $0.offset))
      }
      return (attributes, declarations)
    }
    let relationships = try declarations.map { field, declaration in
      let destination = ModelClassInfo.info(for: field.type.destinationType)
      var inverse: String?
      if let keyPath = declaration.inverse() {
        guard let hit = try ModelClassInfo.resolve(keyPath), case .relationship(let slot) = hit.1
        else {
          throw SchemaError(
            .unknownDestination, entity: entityName, property: field.name,
            message:
              "inverse: \(KeyPathResolution.name(keyPath)) is not a relationship of \(destination.entityName)"
          )
        }
        let inverseField = hit.0.relationshipWrappers[slot]
        guard
          field.type.destinationType == hit.0.modelClass
            || isSubclass(field.type.destinationType, of: hit.0.modelClass),
          modelClass == inverseField.type.destinationType
            || isSubclass(modelClass, of: inverseField.type.destinationType)
        else {
          throw SchemaError(
            .unknownDestination, entity: entityName, property: field.name,
            message:
              "inverse: \(hit.0.entityName).\(inverseField.name) points at "
              + "\(String(describing: inverseField.type.destinationType)), not at \(entityName)")
        }
        inverse = hit.0.relationshipName(slot)
      }
      return RelationshipDescription(
        name: field.name, destination: destination.entityName, isToMany: field.type.isToMany,
        inverse: inverse, deleteRule: declaration.deleteRule,
        minimumModelCount: Int(declaration.minimumModelCount),
        maximumModelCount: Int(declaration.maximumModelCount),
        originalName: declaration.originalName)
    }
    return EntityDescription(
      name: entityName, parent: parentClass.map { String(describing: $0) },
      attributes: attributes, relationships: relationships,
      uniqueConstraints: try declaredUniqueConstraints())
  }

  /// Runs `body` with this class's probe object (made on first use), under the class's lock.
  func withPrototype<R>(_ body: (ModelObject) throws -> R) rethrows -> R {
    try lazyState.withLock { state in
      if state.prototype == nil {
        state.prototype = DeclarationRecorder.recording { modelClass.init() }
      }
      return try body(state.prototype!)
    }
  }

  /// The persisted property `keyPath` reads, found by reading it on a probe object.
  ///
  /// - Returns: The class info of the key path's root and the property, or `nil` when the key
  ///   path does not read exactly one persisted property of its root (a computed or transient
  ///   property, or a path through a relationship).
  /// - Throws: ``SchemaError`` when the key path's root is not a model class.
  static func resolve(_ keyPath: AnyKeyPath) throws -> (ModelClassInfo, ProbeHit)? {
    guard let root = type(of: keyPath).rootType as? ModelObject.Type else {
      throw SchemaError(
        .unknownKeyPath, entity: String(describing: type(of: keyPath).rootType),
        message: "\(KeyPathResolution.name(keyPath)) does not start at a model class")
    }
    let info = ModelClassInfo.info(for: root)
    return info.probe(keyPath).map { (info, $0) }
  }

  private func probe(_ keyPath: AnyKeyPath) -> ProbeHit? {
    withPrototype { prototype in
      prototype._probe = []
      _ = prototype[keyPath: keyPath]
      let hits = prototype._probe ?? []
      prototype._probe = nil
      guard hits.count == 1, let hit = hits.first else { return nil }
      let valueType = type(of: keyPath).valueType
      switch hit {
      case .attribute(let slot):
        return attributeWrappers[slot].type.valueSwiftType == valueType ? hit : nil
      case .relationship(let slot):
        return relationshipWrappers[slot].type.valueSwiftType == valueType ? hit : nil
      }
    }
  }
}

/// Whether `type` is `ancestor` or one of its subclasses.
private func isSubclass(_ type: AnyClass, of ancestor: AnyClass) -> Bool {
  var current: AnyClass? = type
  while let candidate = current {
    if candidate == ancestor { return true }
    current = _getSuperclass(candidate)
  }
  return false
}
