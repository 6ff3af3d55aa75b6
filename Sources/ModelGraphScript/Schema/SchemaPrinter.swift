import ModelGraphCore

/// Prints classes as the `entity` statements that declare them.
struct SchemaPrinter {
  let schema: ScriptSchema
  let catalog: SchemaCatalog
  /// The shape of a Codable type inferred from its stored values, shown as a comment after
  /// an attribute of that type (`nil`: no comment).
  var shape: ((String) -> CompositeShape?)? = nil

  /// Every class, or only `name`.
  func text(only name: String?, at location: SourceLocation) throws -> String {
    var entities = catalog.entities
    if let name {
      guard let entity = catalog.entity(named: name) else {
        throw ScriptError("unknown class '\(name)'", at: location)
      }
      entities = [entity]
    }
    if entities.isEmpty { return "-- no classes\n" }
    return entities.map(declaration).joined()
  }

  private func declaration(_ entity: ResolvedEntity) -> String {
    let description = entity.description
    var text = "entity \(entity.name)\(description.parent.map { " : \($0)" } ?? "") {\n"
    let defaults = schema.declaredDefaults(of: entity.name, in: catalog)
    // Every index the class declares shows as `index`, hash ones and those declared in Swift
    // included; a unique attribute's own index is implied by `unique`.
    let indexed = Set(
      schema.declaredIndexes(of: entity.name, in: catalog).filter {
        !($0.isUnique && $0.kind == .hash
          && entity.attributeSlot(named: $0.attribute).map { entity.attributes[$0].isUnique }
            == true)
      }.map(\.attribute))
    for attribute in description.attributes {
      var line = "  \(attribute.name): \(attribute.declaredTypeName)"
      if attribute.isUnique { line += " unique" }
      if indexed.contains(attribute.name) { line += " index" }
      if attribute.preservesValueOnDeletion { line += " preserve" }
      if let value = defaults[attribute.name] { line += " = \(literal(value))" }
      if case .composite(let type) = attribute.valueType, let declared = catalog.codableShapes[type]
      {
        line += "  -- Codable \(declared)"
      } else if case .composite(let type) = attribute.valueType, let shape = shape?(type) {
        line +=
          shape.values == 0
          ? "  -- Codable; no stored value shows its fields"
          : "  -- Codable \(shape.description), inferred from \(shape.values) stored value"
            + (shape.values == 1 ? "" : "s")
      }
      text += line + "\n"
    }
    for relationship in description.relationships {
      var line = "  \(relationship.name): "
      line +=
        relationship.isToMany
        ? "[\(relationship.destination)]"
        : "\(relationship.destination)\(relationship.isOptional ? "?" : "")"
      if let inverse = relationship.inverse { line += " inverse \(inverse)" }
      if relationship.deleteRule != .nullify {
        line += " delete \(relationship.deleteRule.rawValue)"
      }
      if relationship.minimumModelCount > 0 { line += " min \(relationship.minimumModelCount)" }
      if relationship.maximumModelCount > 0 { line += " max \(relationship.maximumModelCount)" }
      text += line + "\n"
    }
    for constraint in description.uniqueConstraints {
      text += "  unique(\(constraint.joined(separator: ", ")))\n"
    }
    return text + "}\n"
  }

  /// A default value as the script literal that declares it again (strings escaped).
  private func literal(_ value: ModelValue) -> String {
    ScriptLiteral.text(value) ?? value.description
  }
}
