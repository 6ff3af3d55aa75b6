import ModelGraphCore

/// The schema statements of a session: entity declarations waiting to be registered together
/// (so relationships may name classes declared after them), and the attribute defaults and
/// indexes this session declared.
///
/// The catalog keeps defaults and indexes too (``EntityDescription/indexes``,
/// ``AttributeDescription/defaultValue``), and the file's schema carries them, whichever front
/// end declared them. The session's own declarations are added to them: a class declared again
/// with other indexes or defaults than the stored one keeps the stored ones and gains the
/// session's (indexes are physical, so the difference is no conflict); those additions last
/// for the session.
struct ScriptSchema {
  /// Declarations not registered yet.
  var pending: [EntityDeclaration] = []
  /// Default values declared in this session, by class and attribute name.
  var defaults: [String: [String: ModelValue]] = [:]
  /// Indexes declared in this session, by class.
  var indexes: [String: [IndexDefinition]] = [:]

  /// The indexes `name` declares itself: the catalog's, then the session's.
  func declaredIndexes(of name: String, in catalog: SchemaCatalog) -> [IndexDefinition] {
    var found = catalog.entity(named: name)?.description.indexes ?? []
    for definition in indexes[name] ?? [] where !found.contains(definition) {
      found.append(definition)
    }
    return found
  }

  /// The default values `name` declares itself: the catalog's, overridden by the session's.
  func declaredDefaults(of name: String, in catalog: SchemaCatalog) -> [String: ModelValue] {
    var result: [String: ModelValue] = [:]
    for attribute in catalog.entity(named: name)?.description.attributes ?? [] {
      if let value = attribute.defaultValue { result[attribute.name] = value }
    }
    return result.merging(defaults[name] ?? [:]) { _, new in new }
  }

  /// The indexes of `entity`'s table: those declared by it and its ancestors, and a unique
  /// hash index per unique attribute.
  func indexDefinitions(for entity: ResolvedEntity, in catalog: SchemaCatalog) -> [IndexDefinition]
  {
    var found: [IndexDefinition] = []
    for ancestor in entity.lineage {
      for definition in declaredIndexes(of: catalog.entities[ancestor].name, in: catalog)
      where !found.contains(definition) {
        guard let slot = entity.attributeSlot(named: definition.attribute),
          isIndexable(entity.attributes[slot])
        else { continue }
        found.append(definition)
      }
    }
    for attribute in entity.attributes where attribute.isUnique && isIndexable(attribute) {
      if !found.contains(where: { $0.attribute == attribute.name && $0.kind == .hash }) {
        found.append(IndexDefinition(.hash, on: attribute.name, isUnique: true))
      }
    }
    return found
  }

  /// The default values of `entity`'s attributes, its ancestors' first.
  func defaultValues(for entity: ResolvedEntity, in catalog: SchemaCatalog) -> [String: ModelValue]
  {
    var result: [String: ModelValue] = [:]
    for ancestor in entity.lineage {
      result.merge(declaredDefaults(of: catalog.entities[ancestor].name, in: catalog)) {
        _, new in new
      }
    }
    return result
  }

  /// Registers the pending declarations with `store`.
  ///
  /// - Throws: ``ScriptError`` at the declaration concerned: an unknown type, parent,
  ///   destination or inverse, a default of the wrong type, a conflicting or duplicate property.
  ///   Nothing is registered then.
  mutating func flush(into store: Store) throws {
    guard !pending.isEmpty else { return }
    let declarations = pending
    pending = []
    let catalog = store.catalog
    let names = Set(declarations.map(\.name))
    var seen: Set<String> = []
    for declaration in declarations {
      guard seen.insert(declaration.name).inserted else {
        throw ScriptError("class \(declaration.name) is declared twice", at: declaration.location)
      }
      if let parent = declaration.parent, catalog.entity(named: parent) == nil,
        !names.contains(parent)
      {
        throw ScriptError(
          "unknown parent class '\(parent)'", at: declaration.parentLocation ?? declaration.location
        )
      }
    }
    var descriptions: [EntityDescription] = []
    var newDefaults: [String: [String: ModelValue]] = [:]
    var newIndexes: [String: [IndexDefinition]] = [:]
    for declaration in declarations {
      var description = EntityDescription(
        name: declaration.name, parent: declaration.parent,
        uniqueConstraints: declaration.uniqueConstraints.map(\.names))
      for member in declaration.members {
        let codable = catalog.codableShapes[member.typeName].map { _ in
          ValueType.composite(member.typeName)
        }
        if codable != nil, member.isArray {
          throw ScriptError(
            "a list of a Codable type is not an attribute type; declare a Codable type that"
              + " holds the list", at: member.typeLocation)
        }
        if let valueType = Self.valueType(member.typeName) ?? codable {
          let type = member.isArray ? ValueType.array(valueType) : valueType
          try checkAttributeOptions(member, type)
          var attribute = AttributeDescription(
            name: member.name, valueType: type, isOptional: member.isOptional,
            isUnique: member.isUnique, preservesValueOnDeletion: member.preservesValueOnDeletion,
            integerWidth: QueryIntegerWidth(rawValue: member.typeName),
            isFloat32: member.typeName == "Float")
          if let expression = member.defaultValue {
            let value = try Self.defaultValue(expression, for: attribute)
            newDefaults[declaration.name, default: [:]][member.name] = value
            attribute.defaultValue = value
          }
          if member.isIndexed {
            guard isIndexable(attribute) else {
              throw ScriptError(
                "\(type) attributes cannot be indexed", at: member.location)
            }
            newIndexes[declaration.name, default: []].append(
              IndexDefinition(.ordered, on: member.name))
            description.indexes.append(IndexDefinition(.ordered, on: member.name))
          }
          description.attributes.append(attribute)
        } else {
          guard catalog.entity(named: member.typeName) != nil || names.contains(member.typeName)
          else {
            throw ScriptError(
              "unknown type '\(member.typeName)': not a value type (Bool, Int, UInt, Double,"
                + " String, Date, UUID, URL, Data, Decimal), a class, nor a Codable type declared"
                + " with 'codable'", at: member.typeLocation)
          }
          try checkRelationshipOptions(member)
          description.relationships.append(
            RelationshipDescription(
              name: member.name, destination: member.typeName, isToMany: member.isArray,
              isOptional: member.isArray || member.isOptional, inverse: member.inverse,
              deleteRule: member.deleteRule ?? .nullify,
              minimumModelCount: member.minimumCount ?? 0,
              maximumModelCount: member.maximumCount ?? 0))
        }
      }
      descriptions.append(description)
    }
    let updated: SchemaCatalog
    do {
      updated = try catalog.adding(descriptions)
    } catch let error as SchemaError {
      let declaration = declarations.first { $0.name == error.entity } ?? declarations[0]
      let member = declaration.members.first { $0.name == error.property }
      let constraint = declaration.uniqueConstraints.first {
        error.property.map($0.names.contains) ?? false
      }
      throw ScriptError(
        error.message, at: member?.location ?? constraint?.location ?? declaration.location)
    }
    try checkInverses(declarations, updated)
    do {
      try store.register(descriptions)
    } catch let error as SchemaError {
      throw ScriptError(error.message, at: declarations[0].location)
    }
    defaults.merge(newDefaults) { _, new in new }
    indexes.merge(newIndexes) { _, new in new }
  }

  func checkAttributeOptions(_ member: MemberDeclaration, _ type: ValueType) throws {
    if member.inverse != nil || member.deleteRule != nil || member.minimumCount != nil
      || member.maximumCount != nil
    {
      throw ScriptError(
        "'\(member.name)' is an attribute (\(type)); inverse, delete, min and max are for"
          + " relationships", at: member.location)
    }
  }

  private func checkRelationshipOptions(_ member: MemberDeclaration) throws {
    if member.isUnique || member.isIndexed || member.preservesValueOnDeletion
      || member.defaultValue != nil
    {
      throw ScriptError(
        "'\(member.name)' is a relationship to \(member.typeName); unique, index, preserve and"
          + " defaults are for attributes", at: member.location)
    }
    if !member.isArray, member.minimumCount != nil || member.maximumCount != nil {
      throw ScriptError(
        "min and max apply to to-many relationships ([\(member.typeName)])", at: member.location)
    }
    if member.isArray, member.isOptional {
      throw ScriptError(
        "a to-many relationship is never nil; write [\(member.typeName)] without '?'",
        at: member.typeLocation)
    }
  }

  /// Every declared inverse names a relationship of the destination that points back.
  private func checkInverses(_ declarations: [EntityDeclaration], _ catalog: SchemaCatalog) throws {
    for declaration in declarations {
      guard let entity = catalog.entity(named: declaration.name) else { continue }
      for member in declaration.members {
        guard let inverse = member.inverse,
          let destination = catalog.entity(named: member.typeName)
        else { continue }
        guard let slot = destination.relationshipSlot(named: inverse) else {
          throw ScriptError(
            "\(destination.name) has no relationship '\(inverse)' to be the inverse of"
              + " \(declaration.name).\(member.name)", at: member.location)
        }
        let back = destination.relationships[slot]
        guard entity.lineage.contains(where: { catalog.entities[$0].name == back.destination })
        else {
          throw ScriptError(
            "\(destination.name).\(inverse) points at \(back.destination), not at"
              + " \(declaration.name)", at: member.location)
        }
      }
    }
  }

  /// The storage type named `name`, or `nil` for a class name.
  static func valueType(_ name: String) -> ValueType? {
    switch name {
    case "Bool": .bool
    case "Int", "Int8", "Int16", "Int32", "Int64": .int
    case "UInt", "UInt8", "UInt16", "UInt32", "UInt64": .uint
    case "Double", "Float": .double
    case "String": .string
    case "Date": .date
    case "UUID": .uuid
    case "URL": .url
    case "Data": .data
    case "Decimal": .decimal
    default: nil
    }
  }

  static func defaultValue(_ expression: Expression, for attribute: AttributeDescription)
    throws -> ModelValue
  {
    try ValueCoercion.checkDecimalLiteral(expression, for: attribute)
    let value: ModelValue
    switch expression.kind {
    case .literal(let literal): value = literal
    case .list(let elements):
      value = .array(
        try elements.map {
          guard case .literal(let literal) = $0.kind else {
            throw ScriptError("a default value must be a literal", at: $0.location)
          }
          return literal
        })
    default:
      throw ScriptError("a default value must be a literal", at: expression.location)
    }
    return try ValueCoercion.coerce(value, to: attribute, at: expression.location)
  }
}

/// Whether the engine can index `attribute` (scalars other than data and composites).
func isIndexable(_ attribute: AttributeDescription) -> Bool {
  switch attribute.valueType {
  case .array, .composite, .data: false
  default: true
  }
}
