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

  /// `sql: …`, then a `not in SQL:` line for each part left to the engine (`fallback:` stays
  /// the engine's word for what Foundation evaluates).
  public var description: String {
    (["sql: \(sql)"] + fallbacks.map { "not in SQL: \($0), tested in memory over the rows loaded" })
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
  /// The code of each described entity, for identifiers of objects named in a query.
  let codes: [String: Int64]

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
    /// An object reached through a to-one relationship: the SQL of its identifier (NULL when
    /// there is none, or the object no longer exists) and the class it is declared as.
    case related(String, ResolvedEntity)
    /// The objects of a to-many relationship: a statement selecting their identifiers (one
    /// column, those of objects deleted since included) and the class they are declared as.
    case objects(String, ResolvedEntity)
  }

  /// The tables of `entity` and its subclasses (or of it alone) that exist.
  func tables(_ entity: ResolvedEntity, exact: Bool = false) -> [String] {
    (exact ? [entity.index] : catalog.subtree(of: entity.index))
      .map { catalog.entities[$0].name }.filter { described.contains($0) }
      .map { SQLMapping.table($0) }
  }

  /// The column `column` of the object whose identifier is `id`, among the tables of `entity`.
  private func column(
    _ column: String, of id: String, in entity: ResolvedEntity, exact: Bool = false
  )
    -> String
  {
    let sources = tables(entity, exact: exact)
    guard !sources.isEmpty else { return "NULL" }
    let union = sources.map { "SELECT id, \(column) AS c FROM \($0)" }
      .joined(separator: " UNION ALL ")
    return "(SELECT d.c FROM (\(union)) d WHERE d.id = \(id))"
  }

  /// The identifier of `object`, or NULL for none.
  func identifier(_ object: Term) throws -> String? {
    switch object {
    case .object(nil): return nil
    case .object(.some): return "t.id"
    case .related(let id, _): return id
    default: throw Untranslatable(reason: "not an object")
    }
  }

  /// The statement selecting what `request` may return, and every object of its classes that
  /// `holders` selects, with its window (when pushed) widened by the number of those.
  ///
  /// A fetch with unsaved changes runs it when objects that can read differently in the
  /// database and in the context's view are named by a condition rather than by row (see
  /// `FetchedPendingRows.holders`): each can take, or free, one place of the window, as a
  /// named row can. Both parts read one snapshot, so the count and the objects agree.
  func compile(_ request: QueryRequest, holders: QueryExpression) -> SQLFetch {
    let window = compile(request, widenedByRowsOf: "held")
    let held = select(holders, of: request)
    return SQLFetch(
      sql: "WITH held AS (\(held)) SELECT id FROM held UNION (\(window.sql))",
      fallbacks: window.fallbacks, windowPushed: window.windowPushed)
  }

  /// The statement selecting every object of `request`'s classes that `condition` selects
  /// (all of them when it has no exact translation).
  func select(_ condition: QueryExpression, of request: QueryRequest) -> String {
    compile(
      QueryRequest(
        entity: request.entity, includesSubclasses: request.includesSubclasses,
        predicate: condition)
    ).sql
  }

  /// The statement selecting what `request` may return; with `widening`, the name of a
  /// table of identifiers the statement defines, its window takes that many more rows.
  func compile(_ request: QueryRequest, widenedByRowsOf widening: String? = nil) -> SQLFetch {
    guard request.entity < catalog.entities.count else {
      // A class the store has not seen has no table.
      return SQLFetch(
        sql: "SELECT NULL::bigint AS id WHERE false", fallbacks: [], windowPushed: true)
    }
    let root = catalog.entities[request.entity]
    let entities = (request.includesSubclasses ? catalog.subtree(of: root.index) : [root.index])
      .map { catalog.entities[$0] }.filter { described.contains($0.name) }
    var fallbacks: [String] = []
    if let residual = request.residual { fallbacks.append("\(residual) (untranslated predicate)") }
    // Conjuncts translated on every table, or dropped.
    var conjuncts = Self.conjuncts(request.predicate)
    var conditions: [[(sql: String, hasArithmetic: Bool)]] = Array(
      repeating: [], count: entities.count)
    // Arithmetic after a conjunct tested in memory is tested there too, after it, so that
    // a guard there keeps the rows it excludes from failing the statement.
    var dropped = false
    conjuncts.removeAll { conjunct in
      if dropped && conjunct.hasArithmetic {
        fallbacks.append("\(conjunct): arithmetic after a conjunct tested in memory")
        return true
      }
      var translated: [String] = []
      do {
        for entity in entities {
          translated.append(try condition(translate(conjunct, [0: .object(entity)])))
        }
      } catch let error as Untranslatable {
        fallbacks.append("\(conjunct): \(error.reason)")
        dropped = true
        return true
      } catch {
        dropped = true
        return true
      }
      for index in entities.indices {
        conditions[index].append((translated[index], conjunct.hasArithmetic))
      }
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
        conditions[index].isEmpty
        ? "" : " WHERE " + Self.conjunction(conditions[index], grouped: false)
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
    let end = QueryRequest.clippedEnd(offset: request.offset, limit: limit)
    // Clipped to `Int.max`, as the window's end is.
    let count =
      widening.map { "(SELECT \(end) + LEAST(count(*), \(Int.max - end)) FROM \($0))" }
      ?? "\(end)"
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
  func condition(_ term: Term) throws -> String {
    switch term {
    case .condition(let sql): return sql
    case .value(let sql, .bool): return "COALESCE(\(sql), false)"
    case .value(_, nil): return "false"
    default: throw Untranslatable(reason: "not a condition")
    }
  }

  /// `term` as a value.
  func value(_ term: Term) throws -> (String, ValueType?) {
    switch term {
    case .condition(let sql): return (sql, .bool)
    case .value(let sql, let type): return (sql, type)
    case .object, .related, .objects:
      throw Untranslatable(reason: "an object where a value is needed")
    }
  }

  /// `a == b` or `a != b` on objects (or an object and `nil`): the same identifier.
  private func identityComparison(_ a: Term, _ op: QueryComparisonOperator, _ b: Term) throws
    -> Term?
  {
    func isObject(_ term: Term) -> Bool {
      switch term {
      case .object, .related: true
      default: false
      }
    }
    func isNil(_ term: Term) -> Bool {
      if case .value("NULL", nil) = term { return true }
      return false
    }
    guard isObject(a) && (isObject(b) || isNil(b)) || isObject(b) && isNil(a) else {
      return nil
    }
    guard op == .equal || op == .notEqual else {
      throw Untranslatable(reason: "objects have no order")
    }
    let left = isNil(a) ? nil : try identifier(a)
    let right = isNil(b) ? nil : try identifier(b)
    let equal = "(\(left ?? "NULL::bigint") IS NOT DISTINCT FROM \(right ?? "NULL::bigint"))"
    return .condition(op == .equal ? equal : "(NOT \(equal))")
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
      let owner: ResolvedEntity
      var related: String?
      switch try translate(base, variables) {
      case .object(nil): return .value("NULL", nil)
      case .object(let entity?): owner = entity
      case .related(let id, let entity): (owner, related) = (entity, id)
      default: throw Untranslatable(reason: "an attribute of a value")
      }
      guard let slot = owner.attributeSlot(named: name) else {
        throw Untranslatable(reason: "\(owner.name) has no attribute \(name)")
      }
      let type = owner.attributes[slot].valueType
      switch type {
      case .bool, .int, .uint, .double, .date, .string, .uuid: break
      default: throw Untranslatable(reason: "\(type) attributes are tested in memory")
      }
      let quoted = SQLMapping.quoted(name)
      return .value(related.map { column(quoted, of: $0, in: owner) } ?? "t.\(quoted)", type)
    case .relationship(let base, let name):
      let owner: ResolvedEntity
      var related: String?
      switch try translate(base, variables) {
      case .object(nil): return .object(nil)
      case .object(let entity?): owner = entity
      case .related(let id, let entity): (owner, related) = (entity, id)
      default: throw Untranslatable(reason: "a relationship of a value")
      }
      guard let slot = owner.relationshipSlot(named: name),
        let destination = catalog.entity(named: owner.relationships[slot].destination)
      else { throw Untranslatable(reason: "\(owner.name) has no relationship \(name)") }
      if owner.relationships[slot].isToMany {
        return .objects(targets(of: name, owner: owner, id: related), destination)
      }
      let quoted = SQLMapping.quoted(name)
      let raw = related.map { column(quoted, of: $0, in: owner) } ?? "t.\(quoted)"
      // A reference to an object deleted since reads as nil, as in the engine.
      return .related(column("id", of: raw, in: destination), destination)
    case .cast(let base, let name):
      guard let target = catalog.entity(named: name) else {
        throw Untranslatable(reason: "a cast to an unknown class")
      }
      switch try translate(base, variables) {
      case .object(let entity):
        return .object(entity.flatMap { $0.isKind(of: target) ? $0 : nil })
      case .related(let id, _):
        return .related(column("id", of: id, in: target), target)
      default: throw Untranslatable(reason: "a cast of a value")
      }
    case .typeTest(let base, let name, let isExact):
      guard let target = catalog.entity(named: name) else {
        throw Untranslatable(reason: "a type test of an unknown class")
      }
      switch try translate(base, variables) {
      case .object(let entity?):
        let holds = isExact ? entity.index == target.index : entity.isKind(of: target)
        return .condition(holds ? "true" : "false")
      case .related(let id, _):
        return .condition("(\(column("id", of: id, in: target, exact: isExact)) IS NOT NULL)")
      default: throw Untranslatable(reason: "a type test of a value or nil")
      }
    case .and(let parts):
      let sql = try parts.map { (try condition(translate($0, variables)), $0.hasArithmetic) }
      return .condition(sql.isEmpty ? "true" : Self.conjunction(sql))
    case .or(let parts):
      let sql = try parts.map { (try condition(translate($0, variables)), $0.hasArithmetic) }
      return .condition(sql.isEmpty ? "false" : Self.disjunction(sql))
    case .not(let operand):
      return .condition("(NOT \(try condition(translate(operand, variables))))")
    case .comparison(let left, let op, let right):
      let (a, b) = (try translate(left, variables), try translate(right, variables))
      if let identity = try identityComparison(a, op, b) { return identity }
      return try comparison(value(a), op, value(b))
    case .object(let key):
      guard let key, Int(key.entity) < catalog.entities.count,
        let code = codes[catalog.entities[Int(key.entity)].name]
      else { throw Untranslatable(reason: "an object that was never saved") }
      let entity = catalog.entities[Int(key.entity)]
      return .related(String(code << SQLMapping.rowBits | Int64(key.row)), entity)
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
      case .related(let id, let entity):
        return try Self.unlessNull(id, variable) { named in
          bound[variable] = .related(named, entity)
          return try translate(body, bound)
        }
      case .value(let sql, let type):
        return try Self.unlessNull(sql, variable) { named in
          bound[variable] = .value(named, type)
          return try translate(body, bound)
        }
      case .objects: throw Untranslatable(reason: "flatMap of a collection")
      }
    case .count(let operand):
      return try count(translate(operand, variables))
    case .contains(let collection, let element):
      return try contains(translate(collection, variables), translate(element, variables))
    case .any(let collection, let variable, let body):
      return try quantified(
        translate(collection, variables), variable, body, variables, isUniversal: false)
    case .all(let collection, let variable, let body):
      return try quantified(
        translate(collection, variables), variable, body, variables, isUniversal: true)
    case .negative(let operand):
      let (sql, type) = try value(translate(operand, variables))
      guard type == .int || type == .double else {
        throw Untranslatable(reason: "a negation of \(type.map { "\($0)" } ?? "nil")")
      }
      // `-Int64.min` fails the statement (SQLSTATE 22003), as the engine's run throws; fenced
      // as ``integerArithmetic(_:_:_:)`` is, so that a constant does not fail as it folds.
      return .value(
        type == .int
          ? "(SELECT -mg_neg.mg_a FROM (SELECT (\(sql))::bigint OFFSET 0) mg_neg(mg_a))"
          : "(-(\(sql)))", type)
    case .arithmetic(let left, let op, let right):
      let (a, typeA) = try value(translate(left, variables))
      let (b, typeB) = try value(translate(right, variables))
      guard typeA == .int, typeB == .int else {
        // Floating point differs: SQL fails where Swift gives infinity.
        throw Untranslatable(reason: "arithmetic other than on integers")
      }
      return .value(Self.integerArithmetic(a, op, b), .int)
    case .narrow(let operand, let width) where width.isSigned:
      return try narrow(operand, width, variables)
    default:
      throw Untranslatable(reason: "no SQL translation")
    }
  }

  /// `body` given `operand` (SQL that may be NULL), or NULL when `operand` is NULL: the
  /// translation of `flatMap` on an object or a value that may be `nil`. `body` receives the
  /// SQL to read the operand by, and gives a value or an object (a related object's
  /// identifier).
  ///
  /// A short operand is written twice, in the test and in the body. A longer one (a nested
  /// `flatMap`, a related object's identifier) is named once, as `mg_v<variable>.v` of a
  /// subquery fenced by `OFFSET 0` (as ``integerArithmetic(_:_:_:)`` does), so that an
  /// optional chain grows linearly with its length, not doubling with each `?.`.
  static func unlessNull(
    _ operand: String, _ variable: Int, _ body: (String) throws -> Term
  ) throws -> Term {
    let once = operand.utf8.count > repeatedOperandLimit
    let named = once ? "mg_v\(variable).v" : operand
    let result: String
    let make: (String) -> Term
    switch try body(named) {
    case .condition(let sql): (result, make) = (sql, { .value($0, .bool) })
    case .value(let sql, let type): (result, make) = (sql, { .value($0, type) })
    case .related(let id, let entity): (result, make) = (id, { .related($0, entity) })
    case .object, .objects: throw Untranslatable(reason: "an object where a value is needed")
    }
    let choice = "CASE WHEN \(named) IS NULL THEN NULL ELSE \(result) END"
    guard once else { return make(choice) }
    return make(
      "(SELECT \(choice) FROM (SELECT \(operand) OFFSET 0) mg_v\(variable)(v))")
  }

  /// `a op b` on bigints with the engine's semantics: a result that overflows fails the
  /// statement with SQLSTATE 22003 (numeric_value_out_of_range), and a division or remainder
  /// by zero with 22012 (division_by_zero), which the front ends report as the engine's
  /// arithmetic faults. PostgreSQL computes `Int64.min % -1` as 0, where Swift overflows: a
  /// remainder also divides, which fails there.
  ///
  /// As in the engine, only rows the database computes on fail: the operands are read
  /// through a subquery fenced by `OFFSET 0`, which keeps PostgreSQL from folding constant
  /// arithmetic (and failing) while it plans the statement, in a branch no row takes. The
  /// subquery also names each operand once, so that nested arithmetic grows linearly, not
  /// doubling with each step.
  static func integerArithmetic(_ a: String, _ op: QueryArithmeticOperator, _ b: String)
    -> String
  {
    let result =
      op == .remainder
      ? "mg_step.mg_a % mg_step.mg_b + 0 * (mg_step.mg_a / mg_step.mg_b)"
      : "mg_step.mg_a \(op.rawValue) mg_step.mg_b"
    return "(SELECT \(result) "
      + "FROM (SELECT (\(a))::bigint, (\(b))::bigint OFFSET 0) mg_step(mg_a, mg_b))"
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
      let equal = isFloat ? Self.floatEquality(a, b) : "(\(a) IS NOT DISTINCT FROM \(b))"
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
      if type == .date && (op == .lessOrEqual || op == .greaterOrEqual) {
        return .condition(Self.dateInclusiveOrder(a, symbol, b))
      }
      // PostgreSQL orders NaN above every number, where Swift's comparisons with it are
      // false: NaN becomes NULL, which the COALESCE makes false (each operand once).
      let test =
        isFloat
        ? "NULLIF(\(a), 'NaN'::float8) \(symbol) NULLIF(\(b), 'NaN'::float8)"
        : "\(a) \(symbol) \(b)"
      return .condition("COALESCE(\(test), false)")
    }
  }

  /// The longest operand a float equality writes twice; a longer one is named once in a
  /// subquery, so that nested comparisons grow linearly.
  static let repeatedOperandLimit = 120

  /// `a <= b` or `a >= b` on dates with Swift's semantics, never NULL: `nil` on either side
  /// is false, and a date of a NaN interval is `<=` and `>=` every date (and every date `<=`
  /// and `>=` it), as Swift derives `Date`'s `<=` and `>=` (`!(b < a)`, `!(a < b)`) and the
  /// engine answers. Short operands are written out; long ones (a nested expression) are
  /// named once in a subquery fenced by `OFFSET 0`, as ``floatEquality(_:_:)`` does.
  static func dateInclusiveOrder(_ a: String, _ symbol: String, _ b: String) -> String {
    func test(_ a: String, _ b: String) -> String {
      "CASE WHEN \(a) IS NULL OR \(b) IS NULL THEN false "
        + "WHEN \(a) = 'NaN'::float8 OR \(b) = 'NaN'::float8 THEN true "
        + "ELSE \(a) \(symbol) \(b) END"
    }
    let limit = repeatedOperandLimit
    if a.utf8.count <= limit && b.utf8.count <= limit { return "(\(test(a, b)))" }
    return "(SELECT \(test("mg_do.mg_a", "mg_do.mg_b")) "
      + "FROM (SELECT (\(a))::float8, (\(b))::float8 OFFSET 0) mg_do(mg_a, mg_b))"
  }

  /// `a == b` on `float8` values with Swift's semantics: `nil == nil` holds, `NaN` equals
  /// nothing (PostgreSQL's `=` holds for two NaN). Equal operands are both NaN or neither, so
  /// the NaN test may read either: `a`, or `b` when only `b` is short; when both are long (a
  /// nested expression), a subquery fenced by `OFFSET 0` names them once, as
  /// ``integerArithmetic(_:_:_:)`` does.
  static func floatEquality(_ a: String, _ b: String) -> String {
    let limit = repeatedOperandLimit
    if let tested = a.utf8.count <= limit ? a : b.utf8.count <= limit ? b : nil {
      return "(\(a) IS NOT DISTINCT FROM \(b) AND \(tested) IS DISTINCT FROM 'NaN'::float8)"
    }
    return "(SELECT mg_eq.mg_a IS NOT DISTINCT FROM mg_eq.mg_b "
      + "AND mg_eq.mg_a IS DISTINCT FROM 'NaN'::float8 "
      + "FROM (SELECT (\(a))::float8, (\(b))::float8 OFFSET 0) mg_eq(mg_a, mg_b))"
  }
}
