/// The work of ``StoreVersion/migrated(to:defaults:mode:)``: one target table at a time, then
/// the relationships derived from stored inverses, then the new uniqueness rules.
struct VersionMigration {
  let source: StoreVersion
  let target: SchemaCatalog
  let defaults: [String: [String: ModelValue]]
  let mode: MigrationMode
  /// Source entity index -> target entity index, `nil` for a removed entity.
  let entityMap: [Int?]
  let keepsEntityIndices: Bool
  var tables: [Table] = []
  var unset: [MigrationSlot] = []
  /// Relationships added by the target, per concrete table.
  var added: Set<MigrationSlot> = []
  /// Unique attributes to check: (declaring entity, slot).
  var uniqueChecks: Set<MigrationSlot> = []

  init(
    source: StoreVersion, target: SchemaCatalog, defaults: [String: [String: ModelValue]],
    mode: MigrationMode
  ) {
    self.source = source
    self.target = target
    self.defaults = defaults
    self.mode = mode
    entityMap = source.catalog.entities.map { target.entity(named: $0.name)?.index }
    keepsEntityIndices = entityMap.enumerated().allSatisfy { $0.element == $0.offset }
  }

  mutating func run() throws -> MigratedVersion {
    for entity in target.entities {
      tables.append(try migrateTable(entity))
    }
    try deriveAddedRelationships()
    try checkUniqueness()
    try checkUniqueConstraints()
    return MigratedVersion(
      version: StoreVersion(number: source.number, catalog: target, tables: tables),
      unsetAttributes: unset)
  }

  private mutating func migrateTable(_ entity: ResolvedEntity) throws -> Table {
    let table = Table(entity: entity)
    guard let stored = source.catalog.entity(named: entity.name) else { return table }
    let old = source.tables[stored.index]
    table.stamps = unsafeDowncast(old.stamps.copy(), to: Column<UInt32>.self)
    table.liveCount = old.liveCount
    let attributes = PropertyPairing(
      old: stored.attributes.map(\.name),
      new: entity.attributes.map { ($0.name, $0.originalName) })
    table.attributeColumns = try entity.attributes.indices.map { slot in
      try attributeColumn(
        slot, of: entity, from: attributes.oldIndex[slot].map { (stored, $0) }, old: old)
    }
    let relationships = PropertyPairing(
      old: stored.relationships.map(\.name),
      new: entity.relationships.map { ($0.name, $0.originalName) })
    table.relationshipColumns = try entity.relationships.indices.map { slot in
      try relationshipColumn(
        slot, of: entity, from: relationships.oldIndex[slot].map { (stored, $0) }, old: old)
    }
    return table
  }

  // MARK: Attributes

  private mutating func attributeColumn(
    _ slot: Int, of entity: ResolvedEntity, from stored: (ResolvedEntity, Int)?, old: Table
  ) throws -> AnyColumn {
    let attribute = entity.attributes[slot]
    let previous = stored.map { $0.0.attributes[$0.1] }
    if attribute.isUnique, previous?.isUnique != true {
      uniqueChecks.insert(
        MigrationSlot(entity: target.declaringEntity(ofAttribute: slot, in: entity), slot: slot))
    }
    let fallback = defaults[entity.name]?[attribute.name]
    guard let stored, let previous else {
      let column = makeFresh(attribute, rows: old.rowCount)
      if let fallback {
        try fill(column, with: fallback, rows: old, entity: entity, attribute: attribute)
      } else if !attribute.isOptional {
        try refuse(
          SchemaDifference(entity: entity.name, property: attribute.name, change: .attributeAdded),
          because: "it is not optional and has no initial value; declare one "
            + "(@Attribute var \(attribute.name) = ...), make it optional, or use a custom stage",
          unset: MigrationSlot(entity: entity.index, slot: slot))
      }
      return column
    }
    let source = old.attributeColumns[stored.1]
    if mode != .custom, previous.valueType == attribute.valueType {
      try checkIntegerWidth(entity, previous, attribute, column: source, rows: old)
    }
    if previous.valueType == attribute.valueType, previous.isOptional == attribute.isOptional {
      return source.copy()
    }
    let column = makeFresh(attribute, rows: old.rowCount)
    if previous.valueType == attribute.valueType {
      var missing = 0
      old.forEachLiveRow { row in
        let value = source.value(at: row)
        if value.isNull, let fallback {
          _ = column.setValue(fallback, at: row)
        } else if !column.setValue(value, at: row) {
          missing += 1
        }
      }
      if missing == 0 { return column }
      try refuse(
        typeChange(entity, previous, attribute),
        because: "\(missing) stored object\(missing == 1 ? " has" : "s have") no value and the "
          + "attribute has no initial value; declare one or use a custom stage",
        unset: MigrationSlot(entity: entity.index, slot: slot))
      return makeFresh(attribute, rows: old.rowCount)
    }
    try refuse(
      typeChange(entity, previous, attribute),
      because: "a lightweight stage cannot convert stored values; use a custom stage",
      unset: MigrationSlot(entity: entity.index, slot: slot))
    return column
  }

  /// Refuses an attribute narrowed to a width (``AttributeDescription/integerWidth``) a stored
  /// value is out of, or made `Float` (``AttributeDescription/isFloat32``) while a stored value
  /// is no `Float` value; a custom stage may still rewrite such values, and is not checked here.
  private func checkIntegerWidth(
    _ entity: ResolvedEntity, _ previous: AttributeDescription, _ attribute: AttributeDescription,
    column: AnyColumn, rows: Table
  ) throws {
    guard attribute.narrowsValues(of: previous) else { return }
    var found: (row: Int, problem: String)?
    rows.forEachValue(outOf: attribute, in: column) { row, problem in
      if found == nil { found = (row, problem) }
    }
    guard let found else { return }
    let object = PersistentIdentifier(
      entityName: entity.name, row: UInt32(found.row), generation: rows.generation(of: found.row))
    throw MigrationError.narrowedWidth(
      of: attribute, from: previous, in: entity.name, holder: "\(object)", problem: found.problem,
      remedy: "in a custom stage, or with the runner")
  }

  private func typeChange(
    _ entity: ResolvedEntity, _ previous: AttributeDescription, _ attribute: AttributeDescription
  ) -> SchemaDifference {
    SchemaDifference(
      entity: entity.name, property: attribute.name,
      change: .attributeTypeChanged(from: previous.typeName, to: attribute.typeName))
  }

  private func makeFresh(_ attribute: AttributeDescription, rows: Int) -> AnyColumn {
    let column = makeColumn(of: attribute.storageType)
    column.grow(to: rows)
    return column
  }

  private func fill(
    _ column: AnyColumn, with value: ModelValue, rows: Table, entity: ResolvedEntity,
    attribute: AttributeDescription
  ) throws {
    var fits = true
    rows.forEachLiveRow { row in fits = fits && column.setValue(value, at: row) }
    guard fits else {
      throw MigrationError(
        .invalidPlan,
        message: "the default \(value) of \(entity.name).\(attribute.name) is not a "
          + attribute.typeName)
    }
  }

  /// Throws for a change a lightweight migration cannot make; a custom one records `slot`.
  private mutating func refuse(
    _ difference: SchemaDifference, because reason: String, unset slot: MigrationSlot?
  ) throws {
    guard mode == .custom else {
      throw MigrationError(
        .notLightweight, differences: [difference],
        message: "\(difference) cannot be migrated lightweight: \(reason)")
    }
    if let slot { unset.append(slot) }
  }

  // MARK: Relationships

  private mutating func relationshipColumn(
    _ slot: Int, of entity: ResolvedEntity, from stored: (ResolvedEntity, Int)?, old: Table
  ) throws -> AnyColumn {
    let relationship = entity.relationships[slot]
    let column: AnyColumn = relationship.isToMany ? KeyListColumn() : Column<ObjectKey?>()
    guard let stored else {
      added.insert(MigrationSlot(entity: entity.index, slot: slot))
      column.grow(to: old.rowCount)
      return column
    }
    let previous = stored.0.relationships[stored.1]
    let inverses = (
      source.catalog.effectiveInverse(of: stored.1, in: stored.0),
      target.effectiveInverse(of: slot, in: entity)
    )
    let changes = previous.changes(
      to: relationship, inverse: inverseCompatible(stored, (entity, slot)) ? nil : inverses)
    let blocking = changes.filter {
      $0.hasPrefix("destination") || $0.hasPrefix("to-many") || $0.hasPrefix("inverse")
    }
    if keepsEntityIndices, blocking.isEmpty, previous.isToMany == relationship.isToMany {
      return old.relationshipColumns[stored.1].copy()
    }
    column.grow(to: old.rowCount)
    if let first = blocking.first {
      try refuse(
        SchemaDifference(
          entity: entity.name, property: relationship.name, change: .relationshipChanged(first)),
        because: "a lightweight stage keeps relationship data only when the destination, "
          + "cardinality and inverse stay; use a custom stage",
        unset: nil)
      return column
    }
    old.forEachLiveRow { row in
      let keys = old.relatedKeys(row: row, slot: stored.1).compactMap { key in
        entityMap[Int(key.entity)].map {
          ObjectKey(entity: $0, row: Int(key.row), generation: key.generation)
        }
      }
      if let many = column as? KeyListColumn {
        many[row] = keys
      } else {
        unsafeDowncast(column, to: Column<ObjectKey?>.self)[row] = keys.first
      }
    }
    return column
  }

  /// Whether the stored relationship keeps its inverse, or gains one that the target adds.
  private func inverseCompatible(
    _ stored: (ResolvedEntity, Int), _ new: (ResolvedEntity, Int)
  ) -> Bool {
    if SchemaCatalog.sameInverse(
      old: (source.catalog, stored.0, stored.1), new: (target, new.0, new.1))
    {
      return true
    }
    guard source.catalog.effectiveInverse(of: stored.1, in: stored.0) == nil,
      let inverse = target.effectiveInverse(of: new.1, in: new.0),
      let destination = target.entity(named: new.0.relationships[new.1].destination),
      let inverseSlot = destination.relationshipSlot(named: inverse)
    else { return false }
    let declaration = destination.relationships[inverseSlot]
    // The inverse is new when the stored destination has no relationship it maps to.
    guard let storedDestination = source.catalog.entity(named: destination.name) else {
      return true
    }
    return storedDestination.relationshipSlot(named: declaration.name) == nil
      && declaration.originalName.flatMap { storedDestination.relationshipSlot(named: $0) } == nil
  }

  /// Fills each added relationship from its stored inverse, if that was stored.
  private mutating func deriveAddedRelationships() throws {
    for item in added.sorted(by: { ($0.entity, $0.slot) < ($1.entity, $1.slot) }) {
      let owner = target.entities[item.entity]
      let relationship = owner.relationships[item.slot]
      guard let destination = target.entity(named: relationship.destination) else { continue }
      for other in target.subtree(of: destination.index) {
        guard
          let inverse = target.inverseSlot(of: item.slot, in: item.entity, target: other),
          !added.contains(MigrationSlot(entity: other, slot: inverse))
        else { continue }
        try derive(item, from: other, inverseSlot: inverse, toMany: relationship.isToMany)
      }
    }
  }

  private func derive(_ item: MigrationSlot, from other: Int, inverseSlot: Int, toMany: Bool)
    throws
  {
    let owners = tables[item.entity]
    let holders = tables[other]
    try holders.forEachLiveRow { row in
      let back = ObjectKey(entity: other, row: row, generation: holders.generation(of: row))
      for key in holders.relatedKeys(row: row, slot: inverseSlot)
      where Int(key.entity) == item.entity && owners.contains(key) {
        var keys = owners.relatedKeys(row: Int(key.row), slot: item.slot)
        if toMany {
          if !keys.contains(back) { keys.append(back) }
        } else if let present = keys.first, present != back {
          let entity = owners.entity
          throw MigrationError(
            .invalidData,
            differences: [
              SchemaDifference(
                entity: entity.name, property: entity.relationships[item.slot].name,
                change: .relationshipAdded)
            ],
            message:
              "\(entity.name).\(entity.relationships[item.slot].name) is to-one, but object "
              + "\(entity.name)/\(key.row).\(key.generation) is referenced by more than one "
              + "\(holders.entity.name); use a custom stage")
        } else {
          keys = [back]
        }
        owners.setRelatedKeys(keys, row: Int(key.row), slot: item.slot)
      }
    }
  }

  // MARK: Uniqueness

  private func checkUniqueness() throws {
    for check in uniqueChecks.sorted(by: { ($0.entity, $0.slot) < ($1.entity, $1.slot) }) {
      let scope = target.subtree(of: check.entity).map { tables[$0] }
      var candidates: [(table: Int, row: Int)] = []
      for (index, table) in scope.enumerated() {
        table.forEachLiveRow { candidates.append((index, $0)) }
      }
      guard
        let duplicate = scope[0].attributeColumns[check.slot].duplicates(
          slot: check.slot, in: scope, candidates: candidates
        ).first
      else { continue }
      let entity = target.entities[check.entity]
      let name = entity.attributes[check.slot].name
      throw MigrationError(
        .invalidData,
        differences: [
          SchemaDifference(
            entity: entity.name, property: name, change: .attributeOptionChanged("unique added"))
        ],
        message: "\(entity.name).\(name) is unique now, but value \(duplicate.value) is stored "
          + "more than once; remove the duplicates in a custom stage first")
    }
  }

  /// Compound unique constraints the target adds: the stored objects must already satisfy them.
  private func checkUniqueConstraints() throws {
    for entity in target.entities {
      let stored = source.catalog.entity(named: entity.name)?.description.uniqueConstraints ?? []
      for constraint in entity.uniqueConstraints where constraint.declaringEntity == entity.index {
        let names = constraint.slots.map { entity.attributes[$0].name }
        guard !stored.contains(names) else { continue }
        let scope = target.subtree(of: entity.index).map { tables[$0] }
        var candidates: [(table: Int, row: Int)] = []
        for (index, table) in scope.enumerated() {
          table.forEachLiveRow { candidates.append((index, $0)) }
        }
        guard
          let duplicate = Table.compoundDuplicates(
            slots: constraint.slots, in: scope, candidates: candidates
          ).first
        else { continue }
        throw MigrationError(
          .invalidData,
          differences: [
            SchemaDifference(
              entity: entity.name,
              change: .uniqueConstraintsChanged(
                from: stored, to: entity.description.uniqueConstraints))
          ],
          message: "\(entity.name) is unique by (\(names.joined(separator: ", "))) now, but "
            + "\(duplicate.value) is stored more than once; remove the duplicates in a custom "
            + "stage first")
      }
    }
  }
}
