import ModelGraphCore

extension ScriptEngine {
  /// `.dump`: a script that rebuilds the store as the session sees it: the `entity`
  /// declarations, a `let $oN = insert` per object with every attribute, then an `update` per
  /// object with relationships (one side of each inverse pair), then `save`.
  ///
  /// - Throws: ``ScriptError`` for a Codable (composite) attribute, or a value no literal holds
  ///   (`Data` that is not text, a non-finite `Double`).
  func dump(at location: SourceLocation) throws -> String {
    let catalog = catalog
    for entity in catalog.entities {
      for attribute in entity.description.attributes {
        if case .composite(let name) = attribute.valueType {
          throw ScriptError(
            ".dump cannot write \(entity.name).\(attribute.name): the runner cannot declare or"
              + " insert Codable (\(name)) values yet", at: location)
        }
      }
    }
    var text = "-- modelgraph .dump: run it on an empty store to rebuild this one\n"
    text += try SchemaPrinter(schema: schema, catalog: catalog).text(only: nil, at: location)
    guard !catalog.entities.isEmpty else { return text }
    var objects: [ObjectKey] = []
    for entity in catalog.entities {
      objects += try keys(
        entity: entity.index, isExact: true, condition: nil, sort: [], offset: 0, limit: nil)
    }
    var names: [ObjectKey: String] = [:]
    for (number, key) in objects.enumerated() { names[key] = "$o\(number + 1)" }
    let evaluator = evaluator
    for key in objects {
      try checkInterrupt()
      let entity = catalog.entities[Int(key.entity)]
      var fields: [String] = []
      for attribute in entity.attributes {
        let value = evaluator.attribute(attribute.name, of: key)
        guard let literal = ScriptLiteral.text(value) else {
          throw ScriptError(
            ".dump cannot write \(identifier(key)).\(attribute.name) (\(attribute.valueType))"
              + " as a script value", at: location)
        }
        fields.append("\(attribute.name): \(literal)")
      }
      text += "let \(names[key]!) = insert \(entity.name) { \(fields.joined(separator: ", ")) }\n"
    }
    for key in objects {
      let entity = catalog.entities[Int(key.entity)]
      var assignments: [String] = []
      for relationship in entity.relationships where writesSide(relationship, of: entity) {
        let related = evaluator.related(relationship.name, of: key).compactMap { names[$0] }
        if relationship.isToMany {
          guard !related.isEmpty else { continue }
          assignments.append("\(relationship.name) = [\(related.joined(separator: ", "))]")
        } else if let target = related.first {
          assignments.append("\(relationship.name) = \(target)")
        }
      }
      if !assignments.isEmpty {
        text += "update \(names[key]!) set \(assignments.joined(separator: ", "))\n"
      }
    }
    return text + "save\n"
  }

  /// Whether the dump sets `relationship` of `entity`: setting one side of an inverse pair sets
  /// the other, so only the to-many side of a one-to-many pair is written (it keeps the list's
  /// order), and of two sides alike the one whose class and name sort first.
  private func writesSide(_ relationship: RelationshipDescription, of entity: ResolvedEntity)
    -> Bool
  {
    guard let (owner, inverse) = inverse(of: relationship, in: entity) else { return true }
    if relationship.isToMany != inverse.isToMany { return relationship.isToMany }
    return (declaringClass(of: relationship.name, in: entity), relationship.name)
      <= (owner, inverse.name)
  }

  /// The class of `entity`'s lineage that declares relationship `name`.
  private func declaringClass(of name: String, in entity: ResolvedEntity) -> String {
    let catalog = catalog
    for index in entity.lineage
    where catalog.entities[index].description.relationships.contains(where: { $0.name == name }) {
      return catalog.entities[index].name
    }
    return entity.name
  }

  /// The other side of `relationship`, and the class declaring it, if it has one.
  private func inverse(of relationship: RelationshipDescription, in entity: ResolvedEntity)
    -> (String, RelationshipDescription)?
  {
    let catalog = catalog
    guard let destination = catalog.entity(named: relationship.destination) else { return nil }
    if let name = relationship.inverse, let slot = destination.relationshipSlot(named: name) {
      return (declaringClass(of: name, in: destination), destination.relationships[slot])
    }
    let lineage = Set(entity.lineage.map { catalog.entities[$0].name })
    for index in catalog.subtree(of: destination.index) {
      let candidate = catalog.entities[index]
      for other in candidate.description.relationships
      where other.inverse == relationship.name && lineage.contains(other.destination) {
        return (candidate.name, other)
      }
    }
    return nil
  }
}
