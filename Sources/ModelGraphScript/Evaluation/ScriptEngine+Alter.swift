import ModelGraphCore

extension ScriptEngine {
  /// `alter entity Name add|drop|rename …`: a lightweight change to a registered class, run
  /// through the engine's migration at once. Objects keep their identifiers; until `save` the
  /// change counts as unsaved. On an open file the next `save` writes the altered store as the
  /// file's new snapshot (see ``save(at:)``); a loaded store altered is written with `snapshot`.
  ///
  /// - Throws: ``ScriptError`` with unsaved changes, for a property the class does not declare
  ///   itself, or a change the migration refuses (a required attribute added without a default
  ///   to a class with objects, a property still named by an inverse or a unique constraint).
  func alter(_ statement: AlterStatement) throws {
    let location = statement.entityLocation
    guard !session.hasChanges, !inTransaction else {
      throw ScriptError(
        "there are unsaved changes; save or rollback before alter entity", at: location)
    }
    let entity = try self.entity(statement.entity, at: location)
    var descriptions = catalog.entities.map(\.description)
    var description = entity.description
    var defaults = schema.defaults
    var indexes = schema.indexes
    switch statement.change {
    case .add(let member):
      guard let valueType = ScriptSchema.valueType(member.typeName) else {
        throw ScriptError(
          "alter entity add takes an attribute of a value type (Int, String, Date, …); declare a"
            + " relationship in the entity", at: member.typeLocation)
      }
      let type = member.isArray ? ValueType.array(valueType) : valueType
      try schema.checkAttributeOptions(member, type)
      guard entity.attributeSlot(named: member.name) == nil,
        entity.relationshipSlot(named: member.name) == nil
      else {
        throw ScriptError(
          "\(entity.name) already has a property '\(member.name)'", at: member.location)
      }
      var attribute = AttributeDescription(
        name: member.name, valueType: type, isOptional: member.isOptional,
        isUnique: member.isUnique, preservesValueOnDeletion: member.preservesValueOnDeletion,
        integerWidth: QueryIntegerWidth(rawValue: member.typeName),
        isFloat32: member.typeName == "Float")
      if let expression = member.defaultValue {
        let value = try ScriptSchema.defaultValue(expression, for: attribute)
        defaults[entity.name, default: [:]][member.name] = value
        attribute.defaultValue = value
      }
      if member.isIndexed {
        guard isIndexable(attribute) else {
          throw ScriptError("\(type) attributes cannot be indexed", at: member.location)
        }
        indexes[entity.name, default: []].append(IndexDefinition(.ordered, on: member.name))
        description.indexes.append(IndexDefinition(.ordered, on: member.name))
      }
      if !attribute.isOptional, member.defaultValue == nil, try hasObjects(entity) {
        throw ScriptError(
          "\(entity.name) has objects: a new required attribute needs a default (\(member.name):"
            + " \(type) = …) or '?'", at: member.location)
      }
      description.attributes.append(attribute)
    case .drop(let name, let nameLocation):
      try checkOwn(name, of: entity, at: nameLocation)
      try checkUnreferenced(name, of: entity, at: nameLocation)
      description.attributes.removeAll { $0.name == name }
      description.relationships.removeAll { $0.name == name }
      defaults[entity.name]?[name] = nil
      indexes[entity.name]?.removeAll { $0.attribute == name }
      description.indexes.removeAll { $0.attribute == name }
    case .rename(let old, let new, let nameLocation):
      try checkOwn(old, of: entity, at: nameLocation)
      try checkUnreferenced(old, of: entity, at: nameLocation)
      guard entity.attributeSlot(named: new) == nil, entity.relationshipSlot(named: new) == nil
      else {
        throw ScriptError("\(entity.name) already has a property '\(new)'", at: nameLocation)
      }
      for index in description.attributes.indices where description.attributes[index].name == old {
        description.attributes[index].name = new
        description.attributes[index].originalName = old
      }
      for index in description.relationships.indices
      where description.relationships[index].name == old {
        description.relationships[index].name = new
        description.relationships[index].originalName = old
      }
      if let value = defaults[entity.name]?[old] {
        defaults[entity.name]?[old] = nil
        defaults[entity.name]?[new] = value
      }
      let renamed = { (index: IndexDefinition) in
        index.attribute == old
          ? IndexDefinition(index.kind, on: new, isUnique: index.isUnique) : index
      }
      indexes[entity.name] = indexes[entity.name]?.map(renamed)
      description.indexes = description.indexes.map(renamed)
    }
    descriptions[entity.index] = description
    let migrated: MigratedVersion
    do {
      let target = try SchemaCatalog().adding(descriptions)
      // The migration takes the defaults of each concrete class, inherited ones included.
      var concrete: [String: [String: ModelValue]] = [:]
      for entity in catalog.entities {
        for ancestor in entity.lineage {
          let name = catalog.entities[ancestor].name
          concrete[entity.name, default: [:]].merge(
            descriptions[ancestor].attributes.reduce(into: [:]) { $0[$1.name] = $1.defaultValue }
              .merging(defaults[name] ?? [:]) { _, new in new }
          ) { _, new in new }
        }
      }
      migrated = try store.version.migrated(
        to: target, defaults: concrete, mode: .lightweight)
    } catch let error as SchemaError {
      throw ScriptError(error.message, at: location)
    } catch let error as MigrationError {
      throw ScriptError(error.message, at: location)
    }
    // The new store keeps the Codable shapes the file records and the change history.
    let altered = Store(loading: migrated.version)
    altered.record(codableShapes: store.catalog.codableShapes)
    altered.history.restore(store.history.kept())
    replaceStoreKeepingSession(altered)
    schema.defaults = defaults
    schema.indexes = indexes
    if !alteredClasses.contains(entity.name) { alteredClasses.append(entity.name) }
  }

  /// Throws when `alter entity` changed classes since the last save (opening a file would
  /// drop the change).
  func checkNoAlteredSchema(at location: SourceLocation) throws {
    guard alteredClasses.isEmpty else {
      throw ScriptError(
        "the schema of \(alteredClasses.joined(separator: ", ")) was altered and not saved; save"
          + " before opening a file", at: location)
    }
  }

  /// Throws unless `entity` declares `name` itself (not inherited).
  private func checkOwn(_ name: String, of entity: ResolvedEntity, at location: SourceLocation)
    throws
  {
    let declares = { (candidate: ResolvedEntity) in
      candidate.description.attributes.contains { $0.name == name }
        || candidate.description.relationships.contains { $0.name == name }
    }
    guard declares(entity) else {
      let owner = entity.lineage.map { catalog.entities[$0] }.first(where: declares)
      throw ScriptError(
        owner.map { "\(name) is declared by \($0.name); alter that class" }
          ?? "\(entity.name) has no property '\(name)'", at: location)
    }
  }

  /// Whether `entity` or a subclass has objects.
  private func hasObjects(_ entity: ResolvedEntity) throws -> Bool {
    try !keys(
      entity: entity.index, isExact: false, condition: nil, sort: [], offset: 0, limit: 1
    ).isEmpty
  }

  /// Throws when another relationship names `name` as its inverse, or a unique constraint
  /// lists it: those would have to change too.
  private func checkUnreferenced(
    _ name: String, of entity: ResolvedEntity, at location: SourceLocation
  )
    throws
  {
    if entity.description.uniqueConstraints.contains(where: { $0.contains(name) }) {
      throw ScriptError(
        "\(name) is part of a unique constraint of \(entity.name); it cannot change alone",
        at: location)
    }
    let lineage = Set(catalog.subtree(of: entity.index).map { catalog.entities[$0].name })
    for other in catalog.entities {
      for relationship in other.description.relationships
      where relationship.inverse == name && lineage.contains(relationship.destination) {
        throw ScriptError(
          "\(other.name).\(relationship.name) names \(name) as its inverse; it cannot change alone",
          at: location)
      }
    }
    if let slot = entity.relationshipSlot(named: name), entity.relationships[slot].inverse != nil {
      throw ScriptError(
        "\(name) has an inverse (\(entity.relationships[slot].inverse!)); it cannot change alone",
        at: location)
    }
  }
}
