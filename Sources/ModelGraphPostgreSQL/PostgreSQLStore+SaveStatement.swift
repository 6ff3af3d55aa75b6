/// One update or delete of a save, which must find its object at a version no newer than the
/// save's base.
struct CheckedWrite {
  /// The write alone: it returns a row only where the check passed.
  var row: PostgreSQLStatement
  /// The text of the write as a statement of its own, which fails (``PostgreSQLSchema/rowChanged``)
  /// unless the check passed; its last parameter is ``object``.
  var statement: String
  /// The object's name for the failure's message (`Class/row`).
  var object: String

  /// The write as a statement of its own.
  var standalone: PostgreSQLStatement {
    PostgreSQLStatement(statement, row.parameters + [object])
  }
}

extension PostgreSQLStore {
  /// The most updates and deletes one save statement checks; a save with more sends them as
  /// statements of their own, so that few shapes of statement serve every save.
  static let checkedWritesPerStatement = 16

  /// A save as one statement (``saveText(writes:insertions:)``), followed by the inserts too
  /// large to be kept prepared; `nil` when the save is too large for one statement (too many
  /// updates and deletes, or parameters). Called with `lock` held.
  func saveStatement(
    base: String, token: String, ids: [Int64], writes: [CheckedWrite],
    insertions: [PostgreSQLStatement]
  ) -> [PostgreSQLStatement]? {
    guard writes.count <= Self.checkedWritesPerStatement else { return nil }
    let merged = insertions.filter(\.reused)
    var parameters: [String?] = [base, token, SQLMapping.bigintArray(ids), channelName]
    parameters += [String(listenerPID), String(registrationsSeen)]
    var count = parameters.count + writes.count
    for write in writes { count += write.row.parameters.count }
    for insertion in merged { count += insertion.parameters.count }
    guard count <= 65_535 else { return nil }
    parameters.reserveCapacity(count)
    var key: [String] = []
    key.reserveCapacity(writes.count + merged.count + 1)
    for write in writes {
      key.append(write.row.sql)
      parameters += write.row.parameters
    }
    // Separates the writes from the inserts in the key: the text differs where they meet.
    key.append("")
    for insertion in merged {
      key.append(insertion.sql)
      parameters += insertion.parameters
    }
    for write in writes { parameters.append(write.object) }
    let text: String
    if let recent = recentMergedTexts[key] {
      text = recent
    } else if let cached = mergedTexts[key] {
      text = cached
      recentMergedTexts.remember(key, cached)
    } else {
      text = Self.saveText(writes: writes.map(\.row), insertions: merged)
      if mergedTexts.count >= 256 { mergedTexts = [:] }
      mergedTexts[key] = text
    }
    return [PostgreSQLStatement(text, parameters)] + insertions.filter { !$0.reused }
  }

  /// The text of a save as one statement. Parameters: `$1` the version the save is based on,
  /// `$2` its token, `$3` the identifiers it writes, `$4` the notification channel, `$5` the
  /// server process of this store's listener, `$6` the count of registrations it saw
  /// (``registrationsSeen``); then those of each write and insert, renumbered in turn; then
  /// the name of each write's object.
  ///
  /// - `s` bumps `mg_state`'s version if it is still the base. The main query reads `s`
  ///   first, so a save takes `mg_state`'s row before any other (saves never wait for each
  ///   other in two orders), and fails with ``PostgreSQLSchema/behind`` (`mg_behind`) when `s`
  ///   found the database at another version.
  /// - `l` writes the change log's row.
  /// - `w0`, `w1`… are the updates and deletes, each checked after `s` (failing with
  ///   ``PostgreSQLSchema/rowChanged``, naming the object); `m0`, `m1`… the inserts. Each
  ///   writes rows no other part reads; foreign keys and unique values are checked at the
  ///   commit, and a delete's cascades at the statement's end.
  /// - The signal goes out when a listener other than this store's is registered. The
  ///   statement's snapshot is taken before it holds `mg_state`'s row, so a listener that
  ///   registered since is not in it; a registering listener raises `mg_state.registrations`,
  ///   and `s` returns that row as it holds it: a count other than the one this store's
  ///   listener read last (before the snapshot) signals too.
  static func saveText(writes: [PostgreSQLStatement], insertions: [PostgreSQLStatement]) -> String {
    var text =
      "WITH s AS (UPDATE mg_state SET version = version + 1 WHERE version = $1::bigint "
      + "RETURNING version, registrations), l AS (INSERT INTO mg_log (version, token, ids) "
      + "SELECT version, $2::uuid, $3::bigint[] FROM s)"
    var offset = 6
    for (index, write) in writes.enumerated() {
      text += ", w\(index) AS (\(renumbered(write.sql, by: offset)))"
      offset += write.parameters.count
    }
    for (index, insertion) in insertions.enumerated() {
      text += ", m\(index) AS (\(renumbered(insertion.sql, by: offset)))"
      offset += insertion.parameters.count
    }
    text += " SELECT CASE WHEN NOT EXISTS (SELECT FROM s) THEN mg_behind($1::bigint)"
    for index in writes.indices {
      text +=
        " WHEN NOT EXISTS (SELECT FROM w\(index)) THEN mg_expect_one(0, $\(offset + index + 1)::text)"
    }
    text +=
      " END, (SELECT pg_notify($4::text, '') FROM s WHERE s.registrations <> $6::bigint OR "
      + "EXISTS (SELECT FROM mg_listeners WHERE pid <> $5::integer))"
    return text
  }
}
