import ModelGraphCore

extension ScriptEngine {
  /// `.dump`: a script that rebuilds the store as the session sees it: the `entity`
  /// declarations, a `let $oN = insert` per object with every attribute and the relationships
  /// to objects inserted before it (one side of each inverse pair), an `update` for each
  /// relationship that points forward, then `save`.
  ///
  /// Codable attributes are declared with `codable` statements from the shapes the schema
  /// records, and their values written as `{field: value, …}` literals.
  /// - Throws: ``ScriptError`` for a Codable type whose shape the schema does not record, or a
  ///   value no literal holds (`Data` that is not text, a non-finite `Double`).
  func dump(at location: SourceLocation) throws -> String {
    let catalog = catalog
    var text = "-- modelgraph .dump: run it on an empty store to rebuild this one\n"
    text += try codableDeclarations(at: location)
    text += try SchemaPrinter(schema: schema, catalog: catalog).text(only: nil, at: location)
    guard !catalog.entities.isEmpty else { return text }
    var objects: [ObjectKey] = []
    for index in insertionOrder() {
      objects += try keys(
        entity: index, isExact: true, condition: nil, sort: [], offset: 0, limit: nil)
    }
    var names: [ObjectKey: String] = [:]
    var deferred: [(key: ObjectKey, relationship: RelationshipDescription, to: [ObjectKey])] = []
    let evaluator = evaluator
    for key in objects {
      try checkInterrupt()
      let entity = catalog.entities[Int(key.entity)]
      var fields: [String] = []
      for attribute in entity.attributes {
        let value = evaluator.attribute(attribute.name, of: key)
        let isComposite = if case .composite = attribute.valueType { true } else { false }
        guard
          let literal = isComposite ? Self.compositeLiteral(value) : ScriptLiteral.text(value)
        else {
          throw ScriptError(
            ".dump cannot write \(identifier(key)).\(attribute.name) (\(attribute.valueType))"
              + " as a script value", at: location)
        }
        fields.append("\(attribute.name): \(literal)")
      }
      // A relationship whose objects are all inserted already goes in the insert; the others
      // are set by an update once every object exists.
      for relationship in entity.relationships where writesSide(relationship, of: entity) {
        let related = evaluator.related(relationship.name, of: key)
        guard !related.isEmpty else { continue }
        if related.allSatisfy({ names[$0] != nil }) {
          fields.append("\(relationship.name): \(Self.targets(related, relationship, names))")
        } else {
          deferred.append((key, relationship, related))
        }
      }
      names[key] = "$o\(names.count + 1)"
      text += "let \(names[key]!) = insert \(entity.name) { \(fields.joined(separator: ", ")) }\n"
    }
    for (key, relationship, related) in deferred {
      text +=
        "update \(names[key]!) set \(relationship.name) = "
        + "\(Self.targets(related, relationship, names))\n"
    }
    return text + "save\n"
  }

  /// The variables of `related`: one, or a list for a to-many relationship.
  private static func targets(
    _ related: [ObjectKey], _ relationship: RelationshipDescription, _ names: [ObjectKey: String]
  ) -> String {
    let list = related.map { names[$0]! }
    return relationship.isToMany ? "[\(list.joined(separator: ", "))]" : list[0]
  }

  /// The classes in the order their objects are inserted: a class after the classes its written
  /// relationships point at, where no cycle prevents it, so most relationships go in the inserts.
  private func insertionOrder() -> [Int] {
    let catalog = catalog
    var targets: [Int: Set<Int>] = [:]
    for entity in catalog.entities {
      var set: Set<Int> = []
      for relationship in entity.relationships where writesSide(relationship, of: entity) {
        guard let destination = catalog.entity(named: relationship.destination) else { continue }
        set.formUnion(catalog.subtree(of: destination.index))
      }
      set.remove(entity.index)
      targets[entity.index] = set
    }
    var placed: [Int] = []
    var remaining = catalog.entities.map(\.index)
    while !remaining.isEmpty {
      let done = Set(placed)
      let position = remaining.firstIndex { targets[$0]!.isSubset(of: done) } ?? 0
      placed.append(remaining.remove(at: position))
    }
    return placed
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
