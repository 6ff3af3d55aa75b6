import Foundation
import ModelGraphCore

/// A query compiled for the engine: its plan, and the conditions the runner tests itself.
struct PreparedQuery {
  let plan: QueryPlan
  /// Conjuncts with no engine equivalent, tested on each candidate.
  let residual: [Bound]
  /// The residual conjuncts as written, for `.explain`.
  let residualText: [String]
  /// Why the engine got none of the condition, when the plan rejected the translated part.
  let fallbackReason: String?
}

extension ScriptEngine {
  /// Compiles a query statement: the class, the condition and the sort keys checked.
  func prepare(_ query: QueryStatement, window: Bool = true) throws -> PreparedQuery {
    let entity = try self.entity(query.entity, at: query.entityLocation)
    var binder = makeBinder(root: entity.index)
    var conjuncts: [(Bound, String)] = []
    if let condition = query.condition {
      if case .and(let operands) = condition.kind {
        conjuncts = try operands.map { (try binder.condition($0), $0.description) }
      } else {
        conjuncts = [(try binder.condition(condition), condition.description)]
      }
    }
    var sort: [QuerySortKey] = []
    for (path, ascending) in query.sort {
      let (bound, type) = try binder.bind(path)
      guard case .scalar(let valueType) = type, case .attribute = bound,
        let expression = QueryTranslation.translate(bound)
      else {
        throw ScriptError("sort needs an attribute key path, not \(type)", at: path.location)
      }
      if case .array = valueType {
        throw ScriptError("cannot sort by an array attribute", at: path.location)
      }
      sort.append(QuerySortKey(expression, ascending: ascending))
    }
    for (name, location) in query.prefetch where entity.relationshipSlot(named: name) == nil {
      throw ScriptError("\(entity.name) has no relationship '\(name)' to prefetch", at: location)
    }
    return try prepare(
      entity: entity.index, isExact: query.isExact, conjuncts: conjuncts, sort: sort,
      offset: window ? query.offset ?? 0 : 0, limit: window ? query.limit : nil)
  }

  func prepare(
    entity: Int, isExact: Bool, conjuncts: [(Bound, String)], sort: [QuerySortKey], offset: Int,
    limit: Int?
  ) throws -> PreparedQuery {
    var translated: [QueryExpression] = []
    var residual: [Bound] = []
    var residualText: [String] = []
    for (conjunct, text) in conjuncts {
      // The engine's condition runs before the runner's tests: arithmetic written after a
      // conjunct the runner tests is tested after it too, so that a guard there keeps the
      // rows it excludes from faulting.
      if let expression = QueryTranslation.translate(conjunct),
        residual.isEmpty || !expression.hasArithmetic
      {
        translated.append(expression)
      } else {
        residual.append(conjunct)
        residualText.append(text)
      }
    }
    var request = QueryRequest(
      entity: entity, includesSubclasses: !isExact,
      predicate: translated.isEmpty
        ? nil : translated.count == 1 ? translated[0] : .and(translated),
      sort: sort, offset: offset, limit: limit)
    let schema = schema
    let catalog = catalog
    let source = QuerySource(
      session: session, includePendingChanges: true,
      indexes: { schema.indexDefinitions(for: $0, in: catalog) })
    let planner = QueryPlanner(source: source)
    do {
      return PreparedQuery(
        plan: try planner.plan(request), residual: residual, residualText: residualText,
        fallbackReason: nil)
    } catch let error as QueryError where request.predicate != nil {
      request.predicate = nil
      return PreparedQuery(
        plan: try planner.plan(request), residual: conjuncts.map(\.0),
        residualText: conjuncts.map(\.1), fallbackReason: error.message)
    }
  }

  /// The residual test of a prepared query, or `nil` when the engine tests everything.
  func residualTest(_ prepared: PreparedQuery) -> ((ObjectKey) throws -> Bool)? {
    let evaluator = evaluator
    let conditions = prepared.residual
    guard !conditions.isEmpty else {
      // In the REPL every match passes through a check of Ctrl-C, so a long query stops.
      return handlesInterrupts
        ? { _ in
          try Interrupt.check()
          return true
        } : nil
    }
    return { key in
      for condition in conditions where !(try evaluator.test(condition, on: key)) { return false }
      return true
    }
  }

  /// The keys of the objects of `entity` matching `condition`, in the order and window given.
  func keys(
    entity: Int, isExact: Bool, condition: Bound?, sort: [QuerySortKey], offset: Int, limit: Int?
  ) throws -> [ObjectKey] {
    let prepared = try prepare(
      entity: entity, isExact: isExact, conjuncts: condition.map { [($0, "")] } ?? [], sort: sort,
      offset: offset, limit: limit)
    return try prepared.plan.keys(residual: residualTest(prepared))
  }

  /// The keys a query statement selects.
  func keys(_ query: QueryStatement) throws -> [ObjectKey] {
    let prepared = try prepare(query)
    return try prepared.plan.keys(residual: residualTest(prepared))
  }

  func fetch(_ query: QueryStatement) throws {
    let entity = try self.entity(query.entity, at: query.entityLocation)
    let keys = try keys(query)
    if !query.columns.isEmpty {
      emit(try projection(query, of: entity, keys: keys))
      return
    }
    emit(try objectRows(keys, of: entity, prefetch: query.prefetch.map(\.name)))
  }

  func explain(_ query: QueryStatement) throws {
    let prepared = try prepare(query)
    var text = prepared.plan.explanation
    let residual = prepared.residualText.joined(separator: " AND ")
    if let reason = prepared.fallbackReason {
      text +=
        "\nrunner: the engine cannot plan the condition (\(reason)); the runner tests"
        + " \(residual) on every object"
    } else if !prepared.residual.isEmpty {
      text += "\nrunner: tests \(residual) on each candidate (no engine equivalent)"
    }
    output(text + "\n")
  }

  /// A row per object: its identifier, the attributes of the class queried and of the
  /// subclasses present, to-one relationships and prefetched to-many ones (as lists) shown by
  /// ``ObjectDisplay``.
  func objectRows(_ keys: [ObjectKey], of entity: ResolvedEntity, prefetch: [String]) throws
    -> ResultSet
  {
    let catalog = catalog
    var attributeNames = entity.attributes.map(\.name)
    let present = Set(keys.map { Int($0.entity) })
    for index in catalog.subtree(of: entity.index) where present.contains(index) {
      for attribute in catalog.entities[index].attributes
      where !attributeNames.contains(attribute.name) {
        attributeNames.append(attribute.name)
      }
    }
    let relationshipNames = entity.relationships.filter {
      !$0.isToMany || prefetch.contains($0.name)
    }
    .map(\.name)
    var rows: [[ModelValue?]] = []
    let evaluator = evaluator
    let display = objectDisplay()
    for key in keys {
      try checkInterrupt()
      let object = catalog.entities[Int(key.entity)]
      var row: [ModelValue?] = [.string(identifier(key))]
      for name in attributeNames {
        guard let slot = object.attributeSlot(named: name) else {
          row.append(nil)
          continue
        }
        row.append(
          Self.readable(evaluator.attribute(name, of: key), object.attributes[slot].valueType))
      }
      for name in relationshipNames {
        let related = evaluator.related(name, of: key).map { display($0) }
        let isToMany = object.relationships[object.relationshipSlot(named: name)!].isToMany
        row.append(isToMany ? .array(related) : related.first ?? .null)
      }
      rows.append(row)
    }
    return ResultSet(
      columns: ["id"] + attributeNames + relationshipNames, rows: rows, noun: ("object", "objects"))
  }
}

extension ScriptEngine {
  /// A value as results show it: a Codable (composite) value as its JSON text with sorted
  /// keys, not Base64, each number with the digits stored (a `Decimal` field's every digit).
  static func readable(_ value: ModelValue, _ type: ValueType) -> ModelValue {
    guard case .composite = type, case .data(let data) = value,
      let json = try? ImportJSONReader.value(data)
    else { return value }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let sorted = try? encoder.encode(json) else { return value }
    return .string(String(decoding: sorted, as: UTF8.self))
  }
}
