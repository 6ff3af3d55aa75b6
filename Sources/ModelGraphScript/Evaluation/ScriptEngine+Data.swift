import ModelGraphCore

extension ScriptEngine {
  func insert(_ statement: InsertStatement) throws {
    let entity = try self.entity(statement.entity, at: statement.entityLocation)
    var binder = makeBinder(root: nil)
    var attributes: [(slot: Int, value: ModelValue)] = []
    var relationships: [(slot: Int, keys: [ObjectKey])] = []
    var given: Set<String> = []
    for (name, expression, location) in statement.values {
      guard given.insert(name).inserted else {
        throw ScriptError("'\(name)' is given twice", at: location)
      }
      if let slot = entity.attributeSlot(named: name) {
        attributes.append(
          (slot, try attributeValue(expression, entity.attributes[slot], &binder, self: nil)))
      } else if let slot = entity.relationshipSlot(named: name) {
        relationships.append(
          (slot, try targets(expression, entity.relationships[slot], &binder, self: nil)))
      } else {
        throw ScriptError(
          "\(entity.name) has no attribute or relationship '\(name)'"
            + entity.missingMemberHint(name), at: location)
      }
    }
    let key = try insertObject(
      entity, attributes: attributes, relationships: relationships, given: given)
    if let variable = statement.variable { variables[variable] = key }
  }

  /// Inserts an object of `entity` with the values given, the defaults of the attributes not
  /// `given`, and the required attributes left unset noted for validation.
  func insertObject(
    _ entity: ResolvedEntity, attributes given: [(slot: Int, value: ModelValue)],
    relationships: [(slot: Int, keys: [ObjectKey])], given names: Set<String>
  ) throws -> ObjectKey {
    var attributes = given
    for (name, value) in schema.defaultValues(for: entity, in: catalog) where !names.contains(name)
    {
      attributes.append((entity.attributeSlot(named: name)!, value))
    }
    let key = session.insert(entity: entity.index)
    var unset = SlotSet()
    let set = Set(attributes.map(\.slot))
    for (slot, attribute) in entity.attributes.enumerated()
    where !attribute.isOptional && !set.contains(slot) {
      unset.insert(slot)
    }
    session.noteUnsetAttributes(unset, of: key)
    for (slot, value) in attributes { try write(value, to: key, slot: slot) }
    for (slot, keys) in relationships { setRelationship(of: key, slot: slot, to: keys) }
    return key
  }

  func update(_ statement: UpdateStatement, at location: SourceLocation) throws {
    let (entity, keys) = try targetObjects(statement.target)
    var binder = makeBinder(root: entity.index)
    var plans: [(slot: Int, isAttribute: Bool, expression: Expression)] = []
    var given: Set<String> = []
    for (name, expression, nameLocation) in statement.assignments {
      guard given.insert(name).inserted else {
        throw ScriptError("'\(name)' is assigned twice", at: nameLocation)
      }
      if let slot = entity.attributeSlot(named: name) {
        plans.append((slot, true, expression))
      } else if let slot = entity.relationshipSlot(named: name) {
        plans.append((slot, false, expression))
      } else {
        throw ScriptError(
          "\(entity.name) has no attribute or relationship '\(name)'"
            + entity.missingMemberHint(name), at: nameLocation)
      }
    }
    // Every value is computed before anything is written: all or nothing, and each object's
    // expressions see its values from before the statement.
    var attributeWrites: [(key: ObjectKey, slot: Int, value: ModelValue)] = []
    var relationshipWrites: [(key: ObjectKey, slot: Int, keys: [ObjectKey])] = []
    for key in keys {
      try checkInterrupt()
      let object = catalog.entities[Int(key.entity)]
      for plan in plans {
        if plan.isAttribute {
          attributeWrites.append(
            (
              key, plan.slot,
              try attributeValue(plan.expression, object.attributes[plan.slot], &binder, self: key)
            ))
        } else {
          relationshipWrites.append(
            (
              key, plan.slot,
              try targets(plan.expression, object.relationships[plan.slot], &binder, self: key)
            ))
        }
      }
    }
    for write in attributeWrites { try self.write(write.value, to: write.key, slot: write.slot) }
    for write in relationshipWrites {
      setRelationship(of: write.key, slot: write.slot, to: write.keys)
    }
    output("\(keys.count) object\(keys.count == 1 ? "" : "s") updated\n")
  }

  func delete(_ statement: DeleteStatement, at location: SourceLocation) throws {
    let (_, keys) = try targetObjects(statement.target)
    let count = deleteObjects(keys)
    output("\(count) object\(count == 1 ? "" : "s") deleted\n")
  }

  /// The class and the objects a target names.
  private func targetObjects(_ target: Target) throws -> (ResolvedEntity, [ObjectKey]) {
    switch target {
    case .query(let query):
      let entity = try self.entity(query.entity, at: query.entityLocation)
      return (entity, try keys(query))
    case .variable(let name, let location):
      guard let key = variables[name] else {
        throw ScriptError("unknown variable $\(name)", at: location)
      }
      guard session.contains(key) else {
        throw ScriptError("$\(name) refers to an object that no longer exists", at: location)
      }
      return (catalog.entities[Int(key.entity)], [key])
    }
  }

  /// The value of an attribute assignment, converted to the attribute's type.
  private func attributeValue(
    _ expression: Expression, _ attribute: AttributeDescription, _ binder: inout Binder,
    self key: ObjectKey?
  ) throws -> ModelValue {
    if case .composite(let typeName) = attribute.valueType {
      return try compositeValue(expression, typeName: typeName, attribute: attribute, self: key)
    }
    try ValueCoercion.checkDecimalLiteral(expression, for: attribute)
    var scoped = makeBinder(root: key.map { Int($0.entity) })
    let (bound, type) = try scoped.bind(expression)
    switch type {
    case .object, .objects:
      throw ScriptError(
        "\(attribute.name) is an attribute (\(attribute.valueType)), not a relationship",
        at: expression.location)
    default: break
    }
    let bindings: [Int: RunValue] = key.map { [0: .object($0)] } ?? [:]
    let result: RunValue
    do {
      result = try evaluator.evaluate(bound, bindings)
    } catch let error as EvaluationError {
      throw ScriptError(error.message, at: expression.location)
    }
    guard case .value(let value) = result else {
      throw ScriptError("\(attribute.name) needs a value", at: expression.location)
    }
    return try ValueCoercion.coerce(value, to: attribute, at: expression.location)
  }

  /// The objects a relationship assignment names: a variable, `nil`, a list, or a query.
  private func targets(
    _ expression: Expression, _ relationship: RelationshipDescription, _ binder: inout Binder,
    self key: ObjectKey?
  ) throws -> [ObjectKey] {
    var scoped = makeBinder(root: key.map { Int($0.entity) })
    let (bound, type) = try scoped.bind(expression)
    let bindings: [Int: RunValue] = key.map { [0: .object($0)] } ?? [:]
    let destination = catalog.entity(named: relationship.destination)!
    switch type {
    case .object(let index), .objects(let index):
      let source = catalog.entities[index]
      guard source.isKind(of: destination) || destination.isKind(of: source) else {
        throw ScriptError(
          "type mismatch: \(relationship.name) holds \(destination.name) objects, not"
            + " \(source.name)", at: expression.location)
      }
    default: break
    }
    var keys: [ObjectKey]
    switch try evaluator.evaluate(bound, bindings) {
    case .object(let key?): keys = [key]
    case .objects(let found): keys = found
    case .object(nil), .value(.null):
      keys = []
    case .value(.array(let values)) where values.isEmpty: keys = []
    case .value(let value):
      throw ScriptError(
        "type mismatch: \(relationship.name) holds \(destination.name) objects, not"
          + " \(ValueCoercion.typeName(of: value))", at: expression.location)
    }
    for target in keys where !session.contains(target) {
      throw ScriptError(
        "\(identifier(target)) no longer exists (deleted or rolled back)", at: expression.location)
    }
    for target in keys where !catalog.entities[Int(target.entity)].isKind(of: destination) {
      throw ScriptError(
        "type mismatch: \(relationship.name) holds \(destination.name) objects, not"
          + " \(catalog.entities[Int(target.entity)].name)", at: expression.location)
    }
    if !relationship.isToMany {
      guard keys.count <= 1 else {
        throw ScriptError(
          "\(relationship.name) is to-one but the value names \(keys.count) objects",
          at: expression.location)
      }
      if keys.isEmpty, !relationship.isOptional {
        throw ScriptError(
          "\(relationship.name) is not optional; it cannot be nil", at: expression.location)
      }
    }
    return keys
  }

  /// Writes an attribute value of the object `key` into the session.
  private func write(_ value: ModelValue, to key: ObjectKey, slot: Int) throws {
    guard session.writeAttribute(value, slot: slot, of: key) else {
      throw EvaluationError(message: "the value \(value) does not fit its column")
    }
  }
}
