import ModelGraphCore

extension ScriptEngine {
  /// The rows of `fetch Class.column, column, …`: each column a key path from the class
  /// (through to-one relationships, `rel.@count`, arithmetic), objects shown as
  /// ``ObjectDisplay`` does.
  func projection(_ query: QueryStatement, of entity: ResolvedEntity, keys: [ObjectKey]) throws
    -> ResultSet
  {
    if let (_, location) = query.prefetch.first {
      throw ScriptError(
        "prefetch does not apply to a projection; name the relationship as a column",
        at: location)
    }
    var binder = makeBinder(root: entity.index)
    let columns = try query.columns.map { try binder.bind($0) }
    let evaluator = evaluator
    let display = objectDisplay()
    var rows: [[ModelValue?]] = []
    for key in keys {
      try checkInterrupt()
      rows.append(
        try columns.map { bound, type in
          let value = display.shown(try evaluator.evaluate(bound, [0: .object(key)]))
          guard case .scalar(let valueType) = type else { return value }
          return Self.readable(value, valueType)
        })
    }
    return ResultSet(
      columns: query.columns.map(\.description), rows: rows, noun: ("row", "rows"))
  }

  /// How results show objects in the current mode, the display attributes looked up once.
  func objectDisplay() -> ObjectDisplay {
    let catalog = catalog
    return ObjectDisplay(
      evaluator: evaluator, names: catalog.entities.map(\.name),
      attributes: mode == .table ? catalog.entities.map(displayAttribute) : [])
  }

  /// The attribute that names objects of `entity` in results: the one `.display` chose, else
  /// the first unique `String` attribute, else a `String` attribute called `name` or `title`.
  func displayAttribute(of entity: ResolvedEntity) -> String? {
    for ancestor in entity.lineage.reversed() {
      if let chosen = displayAttributes[catalog.entities[ancestor].name] {
        return chosen.isEmpty ? nil : chosen
      }
    }
    let strings = entity.attributes.filter { $0.valueType == .string }
    return
      (strings.first(where: \.isUnique)
      ?? strings.first { $0.name == "name" || $0.name == "title" })?.name
  }

  /// `.display Class attribute|none`.
  func chooseDisplay(_ arguments: String, at location: SourceLocation) throws {
    let words = try DotArguments.split(arguments, at: location)
    guard words.count == 2 else {
      throw ScriptError(
        ".display takes a class and an attribute (or none): .display Trip name", at: location)
    }
    let entity = try self.entity(words[0], at: location)
    if words[1] == "none" {
      displayAttributes[entity.name] = ""
      return
    }
    guard let slot = entity.attributeSlot(named: words[1]) else {
      throw ScriptError("\(entity.name) has no attribute '\(words[1])'", at: location)
    }
    if case .array = entity.attributes[slot].valueType {
      throw ScriptError("an array attribute cannot name objects", at: location)
    }
    displayAttributes[entity.name] = words[1]
  }

  /// A `by` path through to-one relationships (`trip.owner.name`), bound from `entity`.
  func groupingPath(_ path: String, of entity: ResolvedEntity, at location: SourceLocation)
    throws -> Bound
  {
    var expression = Expression(.this, at: location)
    for name in path.split(separator: ".") {
      expression = Expression(.member(expression, String(name)), at: location)
    }
    var binder = makeBinder(root: entity.index)
    let (bound, type) = try binder.bind(expression)
    switch type {
    case .scalar(.array), .objects:
      throw ScriptError(
        "cannot group by \(path): it holds several values; group by a path through to-one"
          + " relationships", at: location)
    default:
      return bound
    }
  }
}

/// A related object as results show it: its identifier, followed in table mode by its display
/// attribute in parentheses (`Trip/0.0 (Lisbon)`); machine-read modes keep the identifier.
struct ObjectDisplay {
  let evaluator: Evaluator
  /// Class names by entity index.
  let names: [String]
  /// The display attribute by entity index; empty outside table mode.
  let attributes: [String?]

  /// `key` shown.
  func callAsFunction(_ key: ObjectKey) -> ModelValue {
    let entity = Int(key.entity)
    let text = "\(names[entity])/\(key.row).\(key.generation)"
    guard attributes.indices.contains(entity), let name = attributes[entity] else {
      return .string(text)
    }
    let value = evaluator.attribute(name, of: key)
    return .string(value.isNull ? text : "\(text) (\(plainText(value)))")
  }

  /// A value as results show it: objects by their identifiers and display attributes.
  func shown(_ value: RunValue) -> ModelValue {
    switch value {
    case .value(let value): value
    case .object(let key?): self(key)
    case .object(nil): .null
    case .objects(let keys): .array(keys.map { self($0) })
    }
  }
}
