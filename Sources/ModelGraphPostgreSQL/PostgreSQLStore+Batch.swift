internal import Foundation
internal import ModelGraphCore

extension PostgreSQLStore {
  /// The statements of one save: usually one (``saveText(writes:insertions:)``: the version
  /// check, the change log's row, the signal when another container listens, and every row).
  /// A save that writes a to-many list of an existing object again (its old rows are deleted
  /// before the new ones are inserted), or too many objects for one statement, sends the
  /// version check first (one call of `mg_commit`), then the updates and deletes, then the
  /// new rows of every table in one statement (``merged(_:)``).
  ///
  /// A save is not wrapped in BEGIN and COMMIT: the statements of one pipeline run as one
  /// implicit transaction, committed at its end or, after any failure (also the deferred
  /// checks at the commit), rolled back whole. Its connection runs it read committed.
  ///
  /// Values are parameters, so a statement's text depends only on its shape (the table, the
  /// columns written, the number of rows) and the connection prepares it once.
  func batch(
    for commit: StoreCommit, token: String, rewriting: Bool = false, inStage: Bool = false
  ) throws -> [PostgreSQLStatement] {
    // A stage's save writes at the version its migration commits as.
    let version = inStage ? applied : applied + 1
    let base = String(applied)
    // The updates and deletes of objects (each checking the object's version), then the
    // deletes of to-many lists written again, then the inserts of every table.
    var writes: [CheckedWrite] = []
    var joinDeletes: [PostgreSQLStatement] = []
    var insertions: [PostgreSQLStatement] = []
    var ids: [Int64] = []
    let catalog = commit.catalog
    // The tables this save publishes, by entity index (`nil`: as in the previous version).
    var publishing = [Table?](repeating: nil, count: catalog.entities.count)
    for part in commit.tables where part.entity < publishing.count {
      publishing[part.entity] = part.table
    }
    let published = publishing
    // Each class's code, looked up by its name at most once a save (`nil`: not yet).
    var entityCodes = [Int64??](repeating: nil, count: catalog.entities.count)
    func code(_ entity: Int) -> Int64? {
      if let known = entityCodes[entity] { return known }
      let found = codes[catalog.entities[entity].name]
      entityCodes[entity] = .some(found)
      return found
    }
    /// The object's identifier, or `nil` for a reference to an object that no longer lives
    /// (the engine reads it as nil).
    func globalID(_ key: ObjectKey) -> Int64? {
      let entity = Int(key.entity)
      let own = entity < published.count ? published[entity] : nil
      guard let table = own ?? commit.previous.tables.dropFirst(entity).first,
        table.contains(key), let code = code(entity)
      else { return nil }
      return code << SQLMapping.rowBits | Int64(key.row)
    }
    for part in commit.tables {
      let entity = catalog.entities[part.entity]
      guard let code = code(part.entity) else {
        throw PostgreSQLError(.malformed, message: "class \(entity.name) has no code")
      }
      let texts = statementTexts(for: entity)
      let table = part.table
      let previous =
        part.entity < commit.previous.tables.count ? commit.previous.tables[part.entity] : nil
      let (toOne, toMany) = (texts.toOne, texts.toMany)
      var inserts: [[String?]] = []
      var joins: [PostgreSQLStatement] = []
      let reserved = blocks[entity.name] ?? []
      let columnCount = entity.attributes.count + toOne.count
      for row in part.rows {
        let id = code << SQLMapping.rowBits | Int64(row)
        let alive = row < table.rowCount && table.isAlive(row)
        let existed = previous.map { row < $0.rowCount && $0.isAlive(row) } ?? false
        guard alive || existed else { continue }
        ids.append(id)
        if !alive {
          writes.append(
            CheckedWrite(
              row: PostgreSQLStatement(texts.deleteRow, [String(id), base]),
              statement: texts.delete, object: "\(entity.name)/\(row)"))
          continue
        }
        if !existed, !rewriting, !reserved.contains(where: { $0.contains(row) }) {
          throw PostgreSQLError(
            .connectionLost,
            message: "a new \(entity.name) was made while the server could not be reached, so "
              + "its identifier was not reserved; roll back and insert it again")
        }
        // An object that existed is written only where it differs from the version the save
        // is based on: the row-version check below guarantees the database holds that version.
        // A column is compared in place (O(1) where both versions share the row's chunk), and
        // only the values written are read and made text.
        let before = existed ? previous : nil
        var written: [Int] = []
        written.reserveCapacity(columnCount)
        // An insert's values begin with its identifier and version, an update's end with its
        // new version, identifier and base.
        var values: [String?] = []
        values.reserveCapacity(columnCount + 3)
        if !existed { values += [String(id), String(version)] }
        for slot in entity.attributes.indices {
          let column = table.attributeColumns[slot]
          // A custom stage's save writes every attribute: a column the stage owes a value
          // is NULL in the database even where the version it read holds the empty value.
          if !inStage, let before, slot < before.attributeColumns.count,
            column.holdsSameValue(at: row, as: before.attributeColumns[slot])
          {
            continue
          }
          let value = column.value(at: row)
          if case .string(let text) = value, text.utf8.contains(0) {
            throw PostgreSQLError(
              .unsupportedValue,
              message:
                "\(entity.name).\(entity.attributes[slot].name) holds a string with the NUL character "
                + "(U+0000), which PostgreSQL text cannot hold; nothing was saved")
          }
          written.append(slot)
          values.append(SQLMapping.parameter(value, type: entity.attributes[slot].valueType))
        }
        for (index, slot) in toOne.enumerated() {
          let key = (table.relationshipColumns[slot] as! Column<ObjectKey?>)[row]
          let target = key.flatMap(globalID)
          if let before {
            let old = (before.relationshipColumns[slot] as? Column<ObjectKey?>)?[row]
            guard old != key || target == nil && key != nil else { continue }
          }
          written.append(entity.attributes.count + index)
          values.append(target.map { String($0) })
        }
        if existed {
          let update = texts.update(written: written)
          values += [String(version), String(id), base]
          writes.append(
            CheckedWrite(
              row: PostgreSQLStatement(update.row, values),
              statement: update.statement, object: "\(entity.name)/\(row)"))
        } else {
          inserts.append(values)
        }
        for slot in toMany {
          let keys = table.relatedKeys(row: row, slot: slot)
          let targets = keys.compactMap(globalID)
          if let before {
            // The same list of live objects as before: its rows stand.
            if targets.count == keys.count, before.relatedKeys(row: row, slot: slot) == keys {
              continue
            }
            joinDeletes.append(PostgreSQLStatement(texts.joinDeletes[slot]!, [String(id)]))
          }
          guard !targets.isEmpty else { continue }
          joins.append(
            PostgreSQLStatement(
              texts.joinInserts[slot]!, [String(id), SQLMapping.bigintArray(targets)]))
        }
      }
      insertions += Self.inserts(
        texts.table, columns: texts.insertColumns, rows: inserts,
        text: texts.insert(rows:))
      insertions += joins
    }
    var statements: [PostgreSQLStatement]
    if !rewriting, !inStage, joinDeletes.isEmpty,
      let save = saveStatement(
        base: base, token: token, ids: ids, writes: writes, insertions: insertions)
    {
      // One statement: the version check, the change log's row, the signal, every write.
      statements = save
    } else {
      statements = writes.map { $0.standalone }
      statements += joinDeletes
      // After every update and delete: a to-many list written again deleted its rows first.
      statements += merged(insertions)
      if !rewriting, !inStage {
        // First: the version check refuses a stale save before its rows are written.
        statements.insert(
          PostgreSQLStatement(
            "SELECT mg_commit($1, $2, $3, $4, $5)",
            [base, token, SQLMapping.bigintArray(ids), channelName, String(listenerPID)]),
          at: 0)
      }
    }
    // A store holding every object has checked the rules spanning several tables in memory,
    // against the version the save is based on, which `mg_commit` (`mg_begin_commit` for a
    // rewrite or a stage) makes sure the database is at: the database looks again only for a
    // store that keeps fetched objects (and for a rewrite or a stage's save).
    if keepsOnlyFetched || rewriting || inStage {
      statements += Self.hierarchyUniquenessChecks(for: commit, version: version)
    }
    if inStage { return statements }
    if rewriting {
      statements.append(
        PostgreSQLStatement(
          "INSERT INTO mg_log (version, token, ids) VALUES ($1, $2, $3)",
          [String(version), token, SQLMapping.bigintArray(ids)]))
      statements.append(PostgreSQLStatement("NOTIFY \(channel)"))
    }
    if version % max(pruneInterval, 1) == 0 {
      statements += PostgreSQLSchema.prune(
        before: version, retention: Int(retention.rounded(.up)))
    }
    return statements
  }

  /// The text of the update of one object's `columns` (`$1`… their values, then the new
  /// version, the identifier, the version the save is based on and the object's name), which
  /// checks that the row is still at a version no newer than the base.
  static func updateText(_ table: String, columns: [String]) -> String {
    "WITH u AS (\(updateRowText(table, columns: columns))) "
      + PostgreSQLSchema.expectOne(object: columns.count + 4)
  }

  /// The update of one object's `columns` alone (parameters as ``updateText(_:columns:)``
  /// without the name), returning a row only where the object was at a version no newer than
  /// the base.
  static func updateRowText(_ table: String, columns: [String]) -> String {
    let count = columns.count
    let assignments = columns.indices.map { "\(columns[$0]) = $\($0 + 1)" }
    return "UPDATE \(table) SET "
      + (assignments + ["_version = $\(count + 1)"]).joined(separator: ", ")
      + " WHERE id = $\(count + 2) AND _version <= $\(count + 3) RETURNING 1"
  }

  /// The text of the insert of `rows` rows into `columns` of `table`.
  static func insertText(_ table: String, columns: [String], rows: Int) -> String {
    let tuples = (0..<rows).map { tuple in
      "(" + columns.indices.map { "$\(tuple * columns.count + $0 + 1)" }.joined(separator: ", ")
        + ")"
    }
    return "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
      + tuples.joined(separator: ", ")
  }

  /// The inserts of `rows` (the values of `columns` each) into `table`: statements of a
  /// power-of-two number of rows, so that few shapes serve every count, each within
  /// PostgreSQL's limit of 65,535 parameters; those of at most
  /// ``PostgreSQLStatement/reusedRows`` rows are kept prepared. `text` gives the text of a
  /// statement of a number of rows (``insertText(_:columns:rows:)`` unless cached).
  static func inserts(
    _ table: String, columns: [String], rows: [[String?]], text: ((Int) -> String)? = nil
  ) -> [PostgreSQLStatement] {
    let limit = min(512, 65_535 / max(columns.count, 1))
    var largest = 1
    while largest * 2 <= limit { largest *= 2 }
    var statements: [PostgreSQLStatement] = []
    var start = 0
    while start < rows.count {
      var size = largest
      while size > rows.count - start { size /= 2 }
      // Kept prepared only when small: a large statement's parsing is shared by its rows.
      statements.append(
        PostgreSQLStatement(
          text?(size) ?? insertText(table, columns: columns, rows: size),
          rows[start..<start + size].flatMap { $0 }, reused: size <= PostgreSQLStatement.reusedRows)
      )
      start += size
    }
    return statements
  }
}
