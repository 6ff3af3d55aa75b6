internal import ModelGraphCore

extension SQLMigration {
  /// Once every table of the target exists: fills added relationships from their stored
  /// inverses, checks the stored objects against new unique rules, and brings each altered
  /// table's unique constraints, indexes and foreign keys to the target's (those of added
  /// to-one relationships, and of emptied ones toward their destination).
  func finish() throws {
    try runPendingChecks()
    for item in added { try derive(item) }
    try checkNewUniqueness()
    for entity in target.entities where source.entity(named: entity.name) != nil {
      try reconcileConstraints(of: entity)
      try reconcileIndexes(of: entity)
    }
    for item in added + relinked {
      let entity = target.entities[item.entity]
      let relationship = entity.relationships[item.slot]
      guard !relationship.isToMany,
        let destination = target.entity(named: relationship.destination),
        target.subtree(of: destination.index).count == 1
      else { continue }
      _ = try connection.run(SQLMapping.foreignKey(entity.name, relationship))
    }
  }

  // MARK: Added relationships

  /// Fills added relationship `item` from its inverse where that was stored: in the order of
  /// the inverse side's classes (as the target lists them), objects and lists, as the in-memory
  /// migration does.
  private func derive(_ item: (entity: Int, slot: Int)) throws {
    let owner = target.entities[item.entity]
    let relationship = owner.relationships[item.slot]
    guard let destination = target.entity(named: relationship.destination),
      let code = codes[owner.name]
    else { return }
    var parts: [String] = []
    for (part, other) in target.subtree(of: destination.index).enumerated() {
      let holder = target.entities[other]
      guard let inverse = target.inverseSlot(of: item.slot, in: item.entity, target: other),
        !added.contains(where: { $0.entity == other && $0.slot == inverse }),
        source.entity(named: holder.name) != nil
      else { continue }
      let name = holder.relationships[inverse].name
      parts.append(
        holder.relationships[inverse].isToMany
          ? "SELECT target AS owner, owner AS holder, \(part) AS part, position AS pos FROM "
            + "\(SQLMapping.joinTable(holder.name, name)) "
            + "WHERE (target >> \(SQLMapping.rowBits)) = \(code)"
          : "SELECT \(SQLMapping.quoted(name)) AS owner, id AS holder, \(part) AS part, 0 AS pos "
            + "FROM \(SQLMapping.table(holder.name)) "
            + "WHERE (\(SQLMapping.quoted(name)) >> \(SQLMapping.rowBits)) = \(code)")
    }
    guard !parts.isEmpty else { return }
    let table = SQLMapping.table(owner.name)
    let pairs =
      "(SELECT p.* FROM (\(parts.joined(separator: " UNION ALL "))) p JOIN \(table) o "
      + "ON o.id = p.owner)"
    if relationship.isToMany {
      _ = try connection.run(
        "INSERT INTO \(SQLMapping.joinTable(owner.name, relationship.name)) (owner, position, "
          + "target) SELECT owner, (row_number() OVER (PARTITION BY owner ORDER BY part, holder, "
          + "pos) - 1)::integer, holder FROM (SELECT DISTINCT ON (owner, holder) * FROM \(pairs) d "
          + "ORDER BY owner, holder, part, pos) firsts")
      return
    }
    let ambiguous = try connection.query(
      "SELECT owner FROM \(pairs) d GROUP BY owner HAVING count(DISTINCT holder) > 1 "
        + "ORDER BY owner LIMIT 1")
    if ambiguous.count > 0, let id = ambiguous.text(0, 0).flatMap(Int64.init) {
      let row = id & (1 << SQLMapping.rowBits - 1)
      throw MigrationError(
        .invalidData,
        differences: [
          SchemaDifference(
            entity: owner.name, property: relationship.name, change: .relationshipAdded)
        ],
        message: "\(owner.name).\(relationship.name) is to-one, but object \(owner.name)/\(row) "
          + "is referenced by more than one \(destination.name); use a custom stage")
    }
    _ = try connection.run(
      "UPDATE \(table) SET \(SQLMapping.quoted(relationship.name)) = d.holder FROM \(pairs) d "
        + "WHERE \(table).id = d.owner")
  }

  // MARK: Uniqueness

  /// Unique attributes and compound constraints the target adds: the stored objects of the
  /// declaring class and its subclasses must hold each value once.
  private func checkNewUniqueness() throws {
    for entity in target.entities {
      let stored = source.entity(named: entity.name)
      for attribute in entity.description.attributes where attribute.isUnique {
        let previous = stored.flatMap { $0.attributeSlot(named: attribute.name) }.map {
          stored!.attributes[$0]
        }
        guard stored != nil, previous?.isUnique != true else { continue }
        if let duplicate = try duplicate([attribute.name], under: entity) {
          throw MigrationError(
            .invalidData,
            differences: [
              SchemaDifference(
                entity: entity.name, property: attribute.name,
                change: .attributeOptionChanged("unique added"))
            ],
            message: "\(entity.name).\(attribute.name) is unique now, but value \(duplicate) is "
              + "stored more than once; remove the duplicates in a custom stage first")
        }
      }
      let before = stored?.description.uniqueConstraints ?? []
      for names in entity.description.uniqueConstraints
      where names.count > 1 && stored != nil && !before.contains(names) {
        guard let duplicate = try duplicate(names, under: entity) else { continue }
        throw MigrationError(
          .invalidData,
          differences: [
            SchemaDifference(
              entity: entity.name,
              change: .uniqueConstraintsChanged(
                from: before, to: entity.description.uniqueConstraints))
          ],
          message: "\(entity.name) is unique by (\(names.joined(separator: ", "))) now, but "
            + "\(duplicate) is stored more than once; remove the duplicates in a custom stage "
            + "first")
      }
    }
  }

  /// A value of `columns` that two objects of `entity` or its subclasses hold, as PostgreSQL
  /// prints it.
  private func duplicate(_ columns: [String], under entity: ResolvedEntity) throws -> String? {
    let list = columns.map(SQLMapping.quoted).joined(separator: ", ")
    let tables = target.subtree(of: entity.index).map {
      "SELECT \(list) FROM \(SQLMapping.table(target.entities[$0].name))"
    }
    let notNull = columns.map { "\(SQLMapping.quoted($0)) IS NOT NULL" }.joined(separator: " AND ")
    let shown = columns.count == 1 ? "\(list)::text" : "concat_ws(', ', \(list))"
    let found = try connection.query(
      "SELECT \(shown) FROM (\(tables.joined(separator: " UNION ALL "))) v WHERE \(notNull) "
        + "GROUP BY \(list) HAVING count(*) > 1 LIMIT 1")
    return found.count > 0 ? found.text(0, 0) ?? "" : nil
  }

  /// Drops the unique constraints of `entity`'s table that the target does not declare, and
  /// adds those it declares that are missing.
  private func reconcileConstraints(of entity: ResolvedEntity) throws {
    let table = SQLMapping.table(entity.name)
    let existing = try connection.query(
      "SELECT c.conname, array_to_string(ARRAY(SELECT a.attname FROM unnest(c.conkey) "
        + "WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = c.conrelid "
        + "AND a.attnum = k.n ORDER BY k.o), chr(31)) FROM pg_constraint c WHERE c.conrelid = "
        + "\(SQLMapping.literal(table))::regclass AND c.contype = 'u'")
    let wanted = SQLMapping.uniqueColumns(of: entity, in: target)
    var present: Set<[String]> = []
    for row in 0..<existing.count {
      guard let name = existing.text(row, 0), let columns = existing.text(row, 1) else { continue }
      let set = columns.split(separator: "\u{1F}").map(String.init).sorted()
      if wanted.contains(where: { $0.sorted() == set }) {
        present.insert(set)
      } else {
        _ = try connection.run("ALTER TABLE \(table) DROP CONSTRAINT \(SQLMapping.quoted(name))")
      }
    }
    for columns in wanted where !present.contains(columns.sorted()) {
      present.insert(columns.sorted())
      _ = try connection.run(
        "ALTER TABLE \(table) ADD UNIQUE (\(columns.map(SQLMapping.quoted).joined(separator: ", "))) "
          + "DEFERRABLE INITIALLY DEFERRED")
    }
  }

  /// Drops the declared indexes of `entity`'s table that the target does not declare (or
  /// declares with another method), and makes those that are missing.
  private func reconcileIndexes(of entity: ResolvedEntity) throws {
    let existing = try connection.query(
      "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND "
        + "tablename = \(SQLMapping.literal(entity.name)) AND indexname LIKE '%.index'")
    let wanted = SQLMapping.indexes(of: entity, in: target)
    var present: Set<String> = []
    for row in 0..<existing.count {
      guard let name = existing.text(row, 0), let definition = existing.text(row, 1) else {
        continue
      }
      if wanted.contains(where: {
        $0.name == name && definition.contains("USING \($0.method) ")
      }) {
        present.insert(name)
      } else {
        _ = try connection.run("DROP INDEX \(SQLMapping.quoted(name))")
      }
    }
    for index in wanted where !present.contains(index.name) {
      _ = try connection.run(
        "CREATE INDEX \(SQLMapping.quoted(index.name)) ON \(SQLMapping.table(entity.name)) "
          + "USING \(index.method) (\(SQLMapping.quoted(index.attribute)))")
    }
  }
}
