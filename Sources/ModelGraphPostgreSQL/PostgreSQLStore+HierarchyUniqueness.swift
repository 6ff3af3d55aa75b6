internal import ModelGraphCore

extension PostgreSQLStore {
  /// The statements (values as parameters) that check, inside a save's transaction, the unique rules whose scope is
  /// more than one table (a rule declared by a class with subclasses: one table per concrete
  /// class, each with its own `UNIQUE` constraint, which cannot see the others').
  ///
  /// For each such rule, the values the save inserted or changed are looked up in every table
  /// of the rule's scope after the save's rows are written; a value held twice raises
  /// SQLSTATE 23505 through `mg_not_unique`, naming a class of the save's rows, the columns and
  /// the value as PostgreSQL's own unique violation does. The save's `mg_commit` (a rewrite's
  /// or a stage's `mg_begin_commit`) has locked the version counter, so concurrent committers
  /// wait for each other and each check sees every value committed before it.
  static func hierarchyUniquenessChecks(
    for commit: StoreCommit, version: UInt64
  ) -> [PostgreSQLStatement] {
    let catalog = commit.catalog
    var candidates: [UniqueConstraint: Set<[String]>] = [:]
    for part in commit.tables {
      let entity = catalog.entities[part.entity]
      let rules = entity.uniqueRules.filter {
        catalog.subtree(of: $0.declaringEntity).count > 1
      }
      guard !rules.isEmpty else { continue }
      let table = part.table
      let previous =
        part.entity < commit.previous.tables.count ? commit.previous.tables[part.entity] : nil
      for row in part.rows where row < table.rowCount && table.isAlive(row) {
        let before = previous.flatMap { $0.rowCount > row && $0.isAlive(row) ? $0 : nil }
        for rule in rules {
          let values = rule.slots.map { table.attributeColumns[$0].value(at: row) }
          let unchanged =
            before.map { before in
              rule.slots.allSatisfy { $0 < before.attributeColumns.count }
                && rule.slots.map { before.attributeColumns[$0].value(at: row) } == values
            } ?? false
          if unchanged { continue }
          // A rule holds only among objects whose values are all set.
          guard !values.contains(.null) else { continue }
          let texts = zip(rule.slots, values).map { slot, value in
            SQLMapping.parameter(value, type: entity.attributes[slot].valueType) ?? ""
          }
          candidates[rule, default: []].insert(texts)
        }
      }
    }
    var statements: [PostgreSQLStatement] = []
    let rules = candidates.keys.sorted {
      ([$0.declaringEntity] + $0.slots).lexicographicallyPrecedes([$1.declaringEntity] + $1.slots)
    }
    for rule in rules {
      let declaring = catalog.entities[rule.declaringEntity]
      let names = rule.slots.map { declaring.attributes[$0].name }
      let columns = names.map(SQLMapping.quoted)
      let tuples = candidates[rule]!.sorted { $0.lexicographicallyPrecedes($1) }
      // The values once, looked up in each table; typed, since a `VALUES` list would read an
      // untyped parameter as text.
      let types = rule.slots.map { SQLMapping.sqlType(declaring.attributes[$0].valueType) }
      let written =
        "w AS (VALUES "
        + tuples.indices.map { tuple in
          "("
            + types.enumerated().map { "$\(tuple * types.count + $0.offset + 1)::\($0.element)" }
            .joined(separator: ", ") + ")"
        }.joined(separator: ", ") + ")"
      let versionParameter = "$\(tuples.count * types.count + 1)"
      let filter = "(\(columns.joined(separator: ", "))) IN (SELECT * FROM w)"
      let aliases = names.indices.map { "c\($0)" }
      let selects = catalog.subtree(of: rule.declaringEntity).map { index in
        let name = catalog.entities[index].name
        return
          "SELECT \(SQLMapping.literal(name)) AS e, _version AS v, "
          + zip(columns, aliases).map { "\($0) AS \($1)" }.joined(separator: ", ")
          + " FROM \(SQLMapping.table(name)) WHERE \(filter)"
      }
      let sql =
        "WITH \(written), s AS (\(selects.joined(separator: " UNION ALL "))) "
        + "SELECT mg_not_unique(coalesce(min(e) FILTER (WHERE v = \(versionParameter)::bigint), min(e)), "
        + "\(SQLMapping.literal(names.joined(separator: ", "))), "
        + "concat_ws(', ', \(aliases.map { "\($0)::text" }.joined(separator: ", ")))) "
        + "FROM s GROUP BY \(aliases.joined(separator: ", ")) HAVING count(*) > 1 LIMIT 1"
      // A save of a few objects has a shape met again; a large one is parsed for its one use.
      statements.append(
        PostgreSQLStatement(
          sql, tuples.flatMap { $0 } + [String(version)],
          reused: tuples.count <= PostgreSQLStatement.reusedRows))
    }
    return statements
  }
}
