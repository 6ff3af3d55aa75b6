internal import ModelGraphCore

/// The statement texts of one class's saves, made once and reused by every save of the same
/// shape: the text of a save depends only on its class, the columns it writes and its number
/// of rows, so only the values are made anew.
final class PostgreSQLStatementTexts {
  /// The class, held so that its identity (the key of the cache) is not reused.
  let entity: ResolvedEntity
  /// The class's table, as an SQL identifier.
  let table: String
  /// The to-one relationship slots, in column order after the attributes.
  let toOne: [Int]
  /// The to-many relationship slots.
  let toMany: [Int]
  /// The columns of the attributes, then of the to-one relationships, as SQL identifiers.
  let columns: [String]
  /// The columns of an insert: `id`, `_version`, then ``columns``.
  let insertColumns: [String]
  /// The delete of one object (`$1` its identifier, `$2` the version the save is based on),
  /// returning a row only where the object's version is no newer than that.
  let deleteRow: String
  /// ``deleteRow`` as a statement of its own, failing unless it deleted the row (`$3` the
  /// object's name).
  let delete: String
  /// Per to-many slot: the join table's insert of one owner's targets, and its delete.
  let joinInserts: [Int: String]
  let joinDeletes: [Int: String]
  /// The inserts by number of rows.
  private var inserts: [Int: String] = [:]
  /// The updates by the set of columns written (bit `i`: column `i`; classes of at most 64
  /// columns): the update alone (``PostgreSQLStore/updateRowText(_:columns:)``) and as a
  /// statement of its own (``PostgreSQLStore/updateText(_:columns:)``).
  private var updates: [UInt64: (row: String, statement: String)] = [:]

  init(_ entity: ResolvedEntity) {
    self.entity = entity
    table = SQLMapping.table(entity.name)
    toOne = entity.relationships.indices.filter { !entity.relationships[$0].isToMany }
    toMany = entity.relationships.indices.filter { entity.relationships[$0].isToMany }
    columns =
      entity.attributes.map { SQLMapping.quoted($0.name) }
      + toOne.map { SQLMapping.quoted(entity.relationships[$0].name) }
    insertColumns = ["id", "_version"] + columns
    deleteRow = "DELETE FROM \(table) WHERE id = $1 AND _version <= $2 RETURNING 1"
    delete = "WITH u AS (\(deleteRow)) " + PostgreSQLSchema.expectOne(object: 3)
    var joinInserts: [Int: String] = [:]
    var joinDeletes: [Int: String] = [:]
    for slot in toMany {
      let join = SQLMapping.joinTable(entity.name, entity.relationships[slot].name)
      joinInserts[slot] =
        "INSERT INTO \(join) (owner, position, target) SELECT $1::bigint, o - 1, t "
        + "FROM unnest($2::bigint[]) WITH ORDINALITY AS x(t, o)"
      joinDeletes[slot] = "DELETE FROM \(join) WHERE owner = $1"
    }
    self.joinInserts = joinInserts
    self.joinDeletes = joinDeletes
  }

  /// The insert of `rows` rows into every column (with `id` and `_version` first).
  func insert(rows: Int) -> String {
    if let text = inserts[rows] { return text }
    let text = PostgreSQLStore.insertText(table, columns: insertColumns, rows: rows)
    // Kept for the shapes a connection keeps prepared; larger ones are rare.
    if rows <= PostgreSQLStatement.reusedRows { inserts[rows] = text }
    return text
  }

  /// The update of the columns at `written` (ascending), checking the object's version: alone
  /// (returning a row only where the check passed) and as a statement of its own (failing
  /// unless it did).
  func update(written: [Int]) -> (row: String, statement: String) {
    var mask: UInt64 = 0
    let cached = columns.count <= 64
    if cached {
      for index in written { mask |= 1 << UInt64(index) }
      if let texts = updates[mask] { return texts }
    }
    let names = written.map { columns[$0] }
    let texts = (
      PostgreSQLStore.updateRowText(table, columns: names),
      PostgreSQLStore.updateText(table, columns: names)
    )
    if cached { updates[mask] = texts }
    return texts
  }
}

extension PostgreSQLStore {
  /// The statement texts of `entity`'s saves; called with `lock` held.
  func statementTexts(for entity: ResolvedEntity) -> PostgreSQLStatementTexts {
    let key = ObjectIdentifier(entity)
    if let cached = statementCache[key] { return cached }
    // Classes of earlier catalogs (before a migration) are dropped now and then.
    if statementCache.count >= 256 { statementCache = [:] }
    let made = PostgreSQLStatementTexts(entity)
    statementCache[key] = made
    return made
  }
}
