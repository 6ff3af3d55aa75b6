internal import Foundation
internal import ModelGraphCore

extension PostgreSQLStore {
  /// The unique rule of a unique-violation `error` (SQLSTATE 23505) that the save `commit`
  /// broke: the class of the table PostgreSQL names, the properties and value of its detail
  /// line (`Key (a, b)=(x, y) already exists.`), and the row of the save holding that value.
  static func uniqueViolation(_ error: PostgreSQLError, in commit: StoreCommit)
    -> PostgreSQLError.UniqueViolation?
  {
    guard let table = error.table, let detail = error.detail,
      let entity = commit.catalog.entity(named: table),
      let keys = detail.range(of: "Key ("), let equals = detail.range(of: ")=(")
    else { return nil }
    let columns = detail[keys.upperBound..<equals.lowerBound]
    let properties = entity.attributes.map(\.name).filter { name in
      columns.split(separator: ", ").contains { $0 == name || $0 == SQLMapping.quoted(name) }
    }
    var value = detail[equals.upperBound...]
    if let end = value.range(of: ") already exists", options: .backwards) {
      value = value[..<end.lowerBound]
    }
    var violation = PostgreSQLError.UniqueViolation(
      entity: table, properties: properties, value: String(value), row: nil)
    let slots = properties.compactMap { name in
      entity.attributes.firstIndex { $0.name == name }
    }
    guard slots.count == properties.count,
      let part = commit.tables.first(where: { $0.entity == entity.index })
    else { return violation }
    violation.row = part.rows.first { row in
      guard row < part.table.rowCount, part.table.isAlive(row) else { return false }
      let texts = slots.compactMap { printed(part.table.attributeColumns[$0].value(at: row)) }
      return texts.count == slots.count && texts.joined(separator: ", ") == violation.value
    }
    if let row = violation.row {
      violation.value = inMemoryText(slots.map { part.table.attributeColumns[$0].value(at: row) })
    }
    return violation
  }

  /// `values` (those of one rule at one row) as the in-memory uniqueness check prints them:
  /// one value as its description (a string in quotes), several in parentheses.
  private static func inMemoryText(_ values: [ModelValue]) -> String {
    guard values.count != 1 else { return values[0].description }
    return "(" + values.map(\.description).joined(separator: ", ") + ")"
  }

  /// `value` as PostgreSQL prints it in a detail line, for the types a unique rule usually
  /// holds; `nil` for the others.
  private static func printed(_ value: ModelValue) -> String? {
    switch value {
    case .string(let text): text
    case .int(let number): String(number)
    case .uint(let number): String(number)
    case .bool(let flag): flag ? "t" : "f"
    case .uuid(let uuid): SQLMapping.uuidText(uuid).lowercased()
    default: nil
    }
  }
}

extension PostgreSQLStore {
  /// `error` as a save reports it: a unique violation PostgreSQL found becomes a
  /// ``PostgreSQLError/Code/notUnique`` naming the rule and value; any other error is kept.
  static func reportingUniqueness(_ error: PostgreSQLError, in commit: StoreCommit)
    -> PostgreSQLError
  {
    guard error.sqlState == "23505", let violation = uniqueViolation(error, in: commit) else {
      return error
    }
    var notUnique = PostgreSQLError(
      .notUnique, sqlState: error.sqlState,
      message: "\(violation.entity).\(violation.properties.joined(separator: "+")): value "
        + "\(violation.value) is not unique (an object not in memory holds it); nothing "
        + "was saved")
    notUnique.uniqueViolation = violation
    return notUnique
  }
}
