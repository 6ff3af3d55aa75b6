internal import ModelGraphCore

/// Relationships whose stored values cannot carry over: a custom stage that changes a
/// relationship's destination, makes a to-many a to-one, or pairs it with another inverse
/// starts it empty on every object, as the in-memory migration does (a lightweight stage
/// refuses it); the stage's code then sets it.
extension SQLMigration {
  /// For each relationship of `source` that `target` keeps but whose stored values cannot
  /// carry over, keyed `entity + U+001F + relationship` (the declaring entity, the target's
  /// name): the change, as ``SchemaDifference`` words it.
  static func startingEmpty(from source: SchemaCatalog, to target: SchemaCatalog)
    -> [String: String]
  {
    var result: [String: String] = [:]
    for difference in source.differences(to: target) {
      guard case .relationshipChanged(let what) = difference.change,
        what.hasPrefix("destination") || what.hasPrefix("to-many") || what.hasPrefix("inverse"),
        !gainsNewInverse(difference, what, from: source, to: target),
        let property = difference.property
      else { continue }
      let key = difference.entity + "\u{1F}" + property
      if result[key] == nil { result[key] = what }
    }
    return result
  }

  /// Whether `difference` (`inverse none became X`) is a relationship that gains as inverse a
  /// relationship the target adds (`X`, which the stored destination had under no name): its
  /// stored values stay, as in memory.
  private static func gainsNewInverse(
    _ difference: SchemaDifference, _ what: String, from source: SchemaCatalog,
    to target: SchemaCatalog
  ) -> Bool {
    let prefix = "inverse none became "
    guard what.hasPrefix(prefix), let property = difference.property,
      let entity = target.entity(named: difference.entity),
      let slot = entity.relationshipSlot(named: property),
      let destination = target.entity(named: entity.relationships[slot].destination),
      let inverseSlot = destination.relationshipSlot(named: String(what.dropFirst(prefix.count)))
    else { return false }
    let declaration = destination.relationships[inverseSlot]
    guard let stored = source.entity(named: destination.name) else { return true }
    return stored.relationshipSlot(named: declaration.name) == nil
      && declaration.originalName.flatMap { stored.relationshipSlot(named: $0) } == nil
  }

  /// The relationships of `entity`'s table (its own and inherited, by slot in `target`) that
  /// start empty, with the change that empties each; none for a lightweight step (the
  /// in-memory check of the same step refused such a change before any SQL ran).
  func startingEmpty(in entity: ResolvedEntity) -> [Int: String] {
    guard custom else { return [:] }
    var result: [Int: String] = [:]
    for (slot, relationship) in entity.relationships.enumerated() {
      result[slot] =
        entity.lineage.lazy.compactMap {
          resets[target.entities[$0].name + "\u{1F}" + relationship.name]
        }.first
    }
    return result
  }

  /// Empties relationship `slot` of `entity`'s table (after its renames), giving the rows that
  /// held a value the migration's version; a to-one also loses its foreign key, which
  /// ``finish()`` adds again toward the (new) destination.
  mutating func empty(_ slot: Int, of entity: ResolvedEntity) throws {
    let relationship = entity.relationships[slot]
    let table = SQLMapping.table(entity.name)
    if relationship.isToMany {
      let join = SQLMapping.joinTable(entity.name, relationship.name)
      _ = try connection.run(
        "UPDATE \(table) SET _version = \(version) WHERE id IN (SELECT owner FROM \(join)); "
          + "DELETE FROM \(join)")
      return
    }
    let column = SQLMapping.quoted(relationship.name)
    try dropForeignKeys(of: entity.name, column: relationship.name)
    _ = try connection.run(
      "UPDATE \(table) SET \(column) = NULL, _version = \(version) WHERE \(column) IS NOT NULL")
    relinked.append((entity.index, slot))
  }

  /// Makes the column of relationship `slot` of `entity`, a to-many that became a to-one
  /// (whose list the caller dropped): empty, its foreign key added by ``finish()``.
  mutating func addEmptied(_ slot: Int, of entity: ResolvedEntity) throws {
    _ = try connection.run(
      "ALTER TABLE \(SQLMapping.table(entity.name)) ADD COLUMN "
        + "\(SQLMapping.quoted(entity.relationships[slot].name)) bigint")
    relinked.append((entity.index, slot))
  }

  /// Drops every foreign key on `column` of `entity`'s table, whatever its name (a renamed
  /// relationship keeps the name its key was made with).
  private func dropForeignKeys(of entity: String, column: String) throws {
    let table = SQLMapping.table(entity)
    let keys = try connection.query(
      "SELECT c.conname FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid "
        + "AND a.attnum = ANY(c.conkey) WHERE c.contype = 'f' AND c.conrelid = "
        + "\(SQLMapping.literal(table))::regclass AND a.attname = \(SQLMapping.literal(column))")
    for row in 0..<keys.count {
      guard let name = keys.text(row, 0) else { continue }
      _ = try connection.run("ALTER TABLE \(table) DROP CONSTRAINT \(SQLMapping.quoted(name))")
    }
  }
}
