internal import Foundation
internal import ModelGraphCore

/// A query request compiled to SQL: the statement that selects the identifiers of every
/// object the request may return, and what it leaves to the engine.
///
/// The statement selects a superset of the request's answer in the database: every match when
/// a part of the condition or the sort could not be translated (that part is left to the
/// engine, which evaluates the whole request again over the objects loaded), and exactly the
/// window's objects (plus ties and `NaN` keys) when everything was translated.
public struct SQLFetch: Sendable, CustomStringConvertible {
  /// The statement; its one column, `id`, is an object identifier.
  public var sql: String
  /// The parts the SQL does not test or order by, described; empty when it selects exactly
  /// the request's window.
  public var fallbacks: [String]
  /// Whether the offset and limit were pushed into the SQL.
  public var windowPushed: Bool

  /// `sql: …`, then a `fallback:` line for each part left to the engine.
  public var description: String {
    (["sql: \(sql)"] + fallbacks.map { "fallback: \($0), evaluated in memory over the rows loaded" })
      .joined(separator: "\n")
  }
}

/// Compiles the engine's query IR to SQL over the store's tables: a deep query is a
/// `UNION ALL` of the class tables, a shallow one reads one table, a type test chooses
/// tables, and sorts and limits are pushed down when the whole request was translated.
///
/// Every condition compiles to a two-valued SQL boolean with Swift's semantics: `nil == nil`
/// holds, a comparison with `nil` or with `NaN` is false, strings compare by canonical
/// equivalence (`normalize(…, NFC)`) and order by Unicode scalars (`COLLATE "C"`). A part
/// without an exact translation is never approximated: its conjunct is dropped from the SQL
/// (so the SQL selects more, never fewer, objects) and reported in ``SQLFetch/fallbacks``.
struct SQLQueryCompiler {
  /// The catalog the request's entity indices refer to.
  let catalog: SchemaCatalog
  /// Entities whose tables exist in the database.
  let described: Set<String>
  /// Whether the database's encoding is UTF-8 (`normalize` needs it).
  let unicode: Bool

  /// Why a part has no exact translation.
  struct Untranslatable: Error {
    var reason: String
  }

  /// An expression's translation.
  enum Term {
    /// A boolean that is never NULL.
    case condition(String)
    /// A value, NULL for `nil`; its type, or `nil` for the `nil` constant.
    case value(String, ValueType?)
    /// An object: the row of the table being read (as `entity`), or none.
    case object(ResolvedEntity?)
  }

  /// The statement selecting what `request` may return.
  func compile(_ request: QueryRequest) -> SQLFetch {
    let root = catalog.entities[request.entity]
    let entities = (request.includesSubclasses ? catalog.subtree(of: root.index) : [root.index])
      .map { catalog.entities[$0] }.filter { described.contains($0.name) }
    var fallbacks: [String] = []
    if let residual = request.residual { fallbacks.append("\(residual) (untranslated predicate)") }
    // Conjuncts translated on every table, or dropped.
    var conjuncts = Self.conjuncts(request.predicate)
    var conditions: [[String]] = Array(repeating: [], count: entities.count)
    conjuncts.removeAll { conjunct in
      var translated: [String] = []
      do {
        for entity in entities {
          translated.append(try condition(translate(conjunct, [0: .object(entity)])))
        }
      } catch let error as Untranslatable {
        fallbacks.append("\(conjunct): \(error.reason)")
        return true
      } catch { return true }
      for index in entities.indices { conditions[index].append(translated[index]) }
      return false
    }
    // Sort keys: one value per table and key, of an orderable type.
    var keys: [[String]] = Array(repeating: [], count: entities.count)
    var nanKeys: [Int] = []
    var sortTranslated = true
    for (position, key) in request.sort.enumerated() {
      do {
        var type: ValueType?
        for (index, entity) in entities.enumerated() {
          let (sql, keyType) = try sortValue(key.expression, entity)
          keys[index].append(sql)
          type = keyType
        }
        if type == .double || type == .date { nanKeys.append(position) }
      } catch {
        fallbacks.append(
          "the sort by \(key) (\((error as? Untranslatable)?.reason ?? "untranslatable"))")
        sortTranslated = false
        break
      }
    }
    if entities.isEmpty {
      return SQLFetch(
        sql: "SELECT NULL::bigint AS id WHERE false", fallbacks: fallbacks, windowPushed: true)
    }
    func select(_ index: Int, withKeys: Bool) -> String {
      let columns =
        ["id"] + (withKeys ? keys[index].enumerated().map { "\($1) AS k\($0)" } : [])
      let condition =
        conditions[index].isEmpty ? "" : " WHERE " + conditions[index].joined(separator: " AND ")
      return
        "SELECT \(columns.joined(separator: ", ")) FROM \(SQLMapping.table(entities[index].name)) t"
        + condition
    }
    let pushable = fallbacks.isEmpty && sortTranslated
    guard pushable, let limit = request.limit else {
      let sql = entities.indices.map { select($0, withKeys: false) }.joined(
        separator: " UNION ALL ")
      return SQLFetch(sql: sql, fallbacks: fallbacks, windowPushed: false)
    }
    let count = QueryRequest.clippedEnd(offset: request.offset, limit: limit)
    if request.sort.isEmpty {
      // The engine's order is class by class, row by row: the first `count` rows of each
      // table hold every object the window can take.
      let sql = entities.indices.map {
        "(\(select($0, withKeys: false)) ORDER BY id LIMIT \(count))"
      }
      .joined(separator: " UNION ALL ")
      return SQLFetch(sql: sql, fallbacks: [], windowPushed: true)
    }
    let inner = entities.indices.map { select($0, withKeys: true) }.joined(separator: " UNION ALL ")
    let order = request.sort.enumerated().map { position, key in
      "k\(position) " + (key.isAscending ? "ASC NULLS FIRST" : "DESC NULLS LAST")
    }
    // Ties with the last row are kept: the engine breaks them by class and row.
    let top =
      "SELECT id FROM q ORDER BY \(order.joined(separator: ", ")) FETCH FIRST \(count) ROWS WITH TIES"
    guard !nanKeys.isEmpty else {
      return SQLFetch(
        sql: "WITH q AS (\(inner)) \(top)", fallbacks: [], windowPushed: true)
    }
    // Swift's `<` gives NaN no place in an order, so the engine's answer over fewer objects
    // could differ: when a match has a NaN key, every match is loaded.
    let nan = nanKeys.map { "k\($0) = 'NaN'::float8" }.joined(separator: " OR ")
    return SQLFetch(
      sql: "WITH q AS (\(inner)), n AS (SELECT EXISTS (SELECT 1 FROM q WHERE \(nan)) AS nan) "
        + "(\(top.replacingOccurrences(of: "FROM q ORDER", with: "FROM q, n WHERE NOT n.nan ORDER"))) "
        + "UNION ALL SELECT id FROM q, n WHERE n.nan",
      fallbacks: [], windowPushed: true)
  }

  /// The operands of a conjunction, or the expression itself.
  static func conjuncts(_ expression: QueryExpression?) -> [QueryExpression] {
    guard let expression else { return [] }
    if case .and(let parts) = expression { return parts.flatMap { conjuncts($0) } }
    return [expression]
  }

  /// A sort key's value on the rows of `entity`, in an order PostgreSQL sorts as Swift does.
  private func sortValue(_ expression: QueryExpression, _ entity: ResolvedEntity) throws -> (
    String, ValueType
  ) {
    guard case .value(let sql, let type) = try translate(expression, [0: .object(entity)]),
      let type
    else { throw Untranslatable(reason: "not a value of the object") }
    switch type {
    case .int, .uint, .double, .date: return (sql, type)
    case .string:
      guard unicode else { throw Untranslatable(reason: "the database is not UTF-8") }
      return ("normalize(\(sql), NFC) COLLATE \"C\"", type)
    default: throw Untranslatable(reason: "\(type) values have no SQL order like Swift's")
    }
  }

  /// `term` as a condition that is never NULL (a `nil` Boolean is false).
  private func condition(_ term: Term) throws -> String {
    switch term {
    case .condition(let sql): return sql
    case .value(let sql, .bool): return "COALESCE(\(sql), false)"
    case .value(_, nil): return "false"
    default: throw Untranslatable(reason: "not a condition")
    }
  }

  /// `term` as a value.
  private func value(_ term: Term) throws -> (String, ValueType?) {
    switch term {
    case .condition(let sql): return (sql, .bool)
    case .value(let sql, let type): return (sql, type)
    case .object: throw Untranslatable(reason: "objects are compared in memory only")
    }
  }

  /// Translates `expression` with the variables bound in `variables`.
  func translate(_ expression: QueryExpression, _ variables: [Int: Term]) throws -> Term {
    switch expression {
    case .constant(let value):
      return try constant(value)
    case .variable(let number):
      guard let term = variables[number] else {
        throw Untranslatable(reason: "variable \(number) is not bound")
      }
      return term
    case .attribute(let base, let name):
      guard case .object(let entity) = try translate(base, variables) else {
        throw Untranslatable(reason: "an attribute of a value")
      }
      guard let entity else { return .value("NULL", nil) }
      guard let slot = entity.attributeSlot(named: name) else {
        throw Untranslatable(reason: "\(entity.name) has no attribute \(name)")
      }
      let type = entity.attributes[slot].valueType
      switch type {
      case .bool, .int, .uint, .double, .date, .string, .uuid:
        return .value("t.\(SQLMapping.quoted(name))", type)
      default: throw Untranslatable(reason: "\(type) attributes are tested in memory")
      }
    case .cast(let base, let name):
      guard case .object(let entity) = try translate(base, variables),
        let target = catalog.entity(named: name)
      else { throw Untranslatable(reason: "a cast of a value or to an unknown class") }
      return .object(entity.flatMap { $0.isKind(of: target) ? $0 : nil })
    case .typeTest(let base, let name, let isExact):
      guard case .object(let entity?) = try translate(base, variables),
        let target = catalog.entity(named: name)
      else { throw Untranslatable(reason: "a type test of a value or an unknown class") }
      let holds = isExact ? entity.index == target.index : entity.isKind(of: target)
      return .condition(holds ? "true" : "false")
    case .and(let parts):
      let sql = try parts.map { try condition(translate($0, variables)) }
      return .condition(sql.isEmpty ? "true" : "(" + sql.joined(separator: " AND ") + ")")
    case .or(let parts):
      let sql = try parts.map { try condition(translate($0, variables)) }
      return .condition(sql.isEmpty ? "false" : "(" + sql.joined(separator: " OR ") + ")")
    case .not(let operand):
      return .condition("(NOT \(try condition(translate(operand, variables))))")
    case .comparison(let left, let op, let right):
      return try comparison(
        value(translate(left, variables)), op, value(translate(right, variables)))
    case .coalesce(let first, let second):
      let (a, typeA) = try value(translate(first, variables))
      let (b, typeB) = try value(translate(second, variables))
      guard typeA == nil || typeB == nil || typeA == typeB else {
        throw Untranslatable(reason: "?? of two types")
      }
      return .value("COALESCE(\(a), \(b))", typeA ?? typeB)
    case .conditional(let test, let then, let otherwise):
      let test = try condition(translate(test, variables))
      let (a, typeA) = try value(translate(then, variables))
      let (b, typeB) = try value(translate(otherwise, variables))
      guard typeA == nil || typeB == nil || typeA == typeB else {
        throw Untranslatable(reason: "?: of two types")
      }
      return .value("CASE WHEN \(test) THEN \(a) ELSE \(b) END", typeA ?? typeB)
    case .flatMap(let base, let variable, let body):
      var bound = variables
      switch try translate(base, variables) {
      case .object(nil): return .value("NULL", nil)
      case .object(let entity?):
        bound[variable] = .object(entity)
        return try translate(body, bound)
      case .condition(let sql):
        bound[variable] = .condition(sql)
        return try translate(body, bound)
      case .value(let sql, let type):
        bound[variable] = .value(sql, type)
        let (result, resultType) = try value(translate(body, bound))
        return .value("CASE WHEN \(sql) IS NULL THEN NULL ELSE \(result) END", resultType)
      }
    case .negative(let operand):
      let (sql, type) = try value(translate(operand, variables))
      guard type == .int || type == .double else {
        throw Untranslatable(reason: "a negation of \(type.map { "\($0)" } ?? "nil")")
      }
      return .value("(-\(sql))", type)
    case .arithmetic(let left, let op, let right):
      // Integers only: SQL and Swift agree on bigint results, and both fail on overflow and
      // division by zero (floating point differs there: SQL fails where Swift gives infinity).
      let (a, typeA) = try value(translate(left, variables))
      let (b, typeB) = try value(translate(right, variables))
      guard typeA == .int, typeB == .int else {
        throw Untranslatable(reason: "arithmetic other than on integers")
      }
      return .value("(\(a) \(op.rawValue) \(b))", .int)
    default:
      throw Untranslatable(reason: "no SQL translation")
    }
  }

  /// A constant as SQL.
  private func constant(_ value: ModelValue) throws -> Term {
    let type: ValueType
    switch value {
    case .null: return .value("NULL", nil)
    case .bool: type = .bool
    case .int: type = .int
    case .uint: type = .uint
    case .double: type = .double
    case .date: type = .date
    case .uuid: type = .uuid
    case .string(let text):
      guard !text.utf8.contains(0) else {
        throw Untranslatable(reason: "a string with the NUL character")
      }
      type = .string
    default: throw Untranslatable(reason: "constants of this type are compared in memory")
    }
    let literal = SQLMapping.literal(value, type: type)
    // Typed, so that `NULL` on the other side or a CASE takes the right type.
    let cast: String =
      switch type {
      case .bool: "boolean"
      case .int: "bigint"
      case .uint: "numeric"
      case .double, .date: "float8"
      case .uuid: "uuid"
      default: "text"
      }
    return .value("(\(literal))::\(cast)", type)
  }

  /// `a op b` with Swift's semantics, never NULL.
  private func comparison(
    _ left: (String, ValueType?), _ op: QueryComparisonOperator, _ right: (String, ValueType?)
  ) throws -> Term {
    guard left.1 == nil || right.1 == nil || left.1 == right.1 else {
      throw Untranslatable(reason: "values of two types")
    }
    guard let type = left.1 ?? right.1 else {
      // nil against nil.
      return .condition(op == .equal ? "true" : "false")
    }
    var (a, b) = (left.0, right.0)
    if type == .string {
      guard unicode else { throw Untranslatable(reason: "the database is not UTF-8") }
      a = "normalize(\(a), NFC) COLLATE \"C\""
      b = "normalize(\(b), NFC) COLLATE \"C\""
    }
    let isFloat = type == .double || type == .date
    switch op {
    case .equal, .notEqual:
      var equal = "(\(a) IS NOT DISTINCT FROM \(b)"
      if isFloat { equal += " AND \(a) IS DISTINCT FROM 'NaN'::float8" }
      equal += ")"
      return .condition(op == .equal ? equal : "(NOT \(equal))")
    case .less, .lessOrEqual, .greater, .greaterOrEqual:
      switch type {
      case .int, .uint, .double, .date, .string: break
      default: throw Untranslatable(reason: "\(type) values have no SQL order like Swift's")
      }
      let symbol: String =
        switch op {
        case .less: "<"
        case .lessOrEqual: "<="
        case .greater: ">"
        default: ">="
        }
      var test = "\(a) \(symbol) \(b)"
      if isFloat { test += " AND \(a) <> 'NaN'::float8 AND \(b) <> 'NaN'::float8" }
      return .condition("COALESCE(\(test), false)")
    }
  }
}
