import Foundation
import ModelGraphCore

extension ScriptEngine {
  func aggregate(_ statement: AggregateStatement) throws {
    let entity = try self.entity(statement.query.entity, at: statement.query.entityLocation)
    var slot: Int?
    if let (name, location) = statement.attribute {
      guard let found = entity.attributeSlot(named: name) else {
        throw ScriptError("\(entity.name) has no attribute '\(name)'", at: location)
      }
      let type = entity.attributes[found].valueType
      switch (statement.function, type) {
      case (.sum, .int), (.sum, .uint), (.sum, .double), (.sum, .decimal), (.avg, .int),
        (.avg, .uint), (.avg, .double), (.avg, .decimal):
        break
      case (.min, .array), (.max, .array), (.min, .bool), (.max, .bool), (.min, .data),
        (.max, .data), (.min, .url), (.max, .url), (.min, .uuid), (.max, .uuid):
        throw ScriptError(
          "\(statement.function.rawValue) cannot order \(type) values", at: location)
      case (.min, _), (.max, _):
        break
      default:
        throw ScriptError(
          "\(statement.function.rawValue) needs a number, not \(name) (\(type))", at: location)
      }
      slot = found
    }
    var grouping: String?
    var groupingRelationship: String?
    var groupingPath: Bound?
    if let (name, location) = statement.groupBy, name.contains(".") {
      groupingPath = try self.groupingPath(name, of: entity, at: location)
      grouping = name
    } else if let (name, location) = statement.groupBy, name != "class" {
      if let slot = entity.attributeSlot(named: name) {
        if case .array = entity.attributes[slot].valueType {
          throw ScriptError("cannot group by an array attribute", at: location)
        }
      } else if let slot = entity.relationshipSlot(named: name) {
        guard !entity.relationships[slot].isToMany else {
          throw ScriptError(
            "cannot group by the to-many relationship '\(name)'; group by a to-one one, an"
              + " attribute or class", at: location)
        }
        groupingRelationship = name
      } else {
        throw ScriptError(
          "\(entity.name) has no attribute or to-one relationship '\(name)' to group by (or use"
            + " 'by class')", at: location)
      }
      grouping = name
    }
    let prepared = try prepare(statement.query)
    let residual = residualTest(prepared)
    let label =
      statement.attribute.map { "\(statement.function.rawValue)(\($0.name))" } ?? "count"
    if statement.groupBy == nil, statement.function == .count {
      output(scalar(.int(Int64(try prepared.plan.count(residual: residual))), label))
      return
    }
    let keys = try prepared.plan.keys(residual: residual)
    let evaluator = evaluator
    let display = objectDisplay()
    let attributeName = slot.map { entity.attributes[$0].name }
    var groups: [GroupKey: [ModelValue]] = [:]
    var order: [ModelValue] = []
    for key in keys {
      try checkInterrupt()
      let group: ModelValue
      if let groupingPath {
        group = display.shown(try evaluator.evaluate(groupingPath, [0: .object(key)]))
      } else if let groupingRelationship {
        group = evaluator.related(groupingRelationship, of: key).first.map { display($0) } ?? .null
      } else if let grouping {
        group = evaluator.attribute(grouping, of: key)
      } else if statement.groupBy != nil {
        group = .string(catalog.entities[Int(key.entity)].name)
      } else {
        group = .null
      }
      if groups[GroupKey(value: group)] == nil { order.append(group) }
      groups[GroupKey(value: group), default: []].append(
        attributeName.map { evaluator.attribute($0, of: key) } ?? .null)
    }
    if statement.groupBy == nil {
      output(
        scalar(
          try Aggregation.apply(statement.function, groups[GroupKey(value: .null)] ?? []), label))
      return
    }
    if grouping == nil {
      let rank = Dictionary(
        uniqueKeysWithValues: catalog.entities.map { (ModelValue.string($0.name), $0.index) })
      order.sort { rank[$0, default: 0] < rank[$1, default: 0] }
    } else {
      order.sort { a, b in
        if a.isNull != b.isNull { return a.isNull }
        // NaN next, where a fetch sorts it.
        if GroupKey.isNaN(a) != GroupKey.isNaN(b) { return GroupKey.isNaN(a) }
        return (Comparing.order(a, b) ?? 0) < 0
      }
    }
    let rows = try order.map { group in
      [group, try Aggregation.apply(statement.function, groups[GroupKey(value: group)] ?? [])]
        as [ModelValue?]
    }
    emit(ResultSet(columns: [grouping ?? "class", label], rows: rows, noun: ("group", "groups")))
  }

  /// One value: bare in table and CSV mode, a JSON value in JSON mode.
  func scalar(_ value: ModelValue, _ label: String) -> String {
    switch mode {
    case .json: JSONFormat.json(value) + "\n"
    default: plainText(value) + "\n"
    }
  }
}

/// count, sum, min, max and avg over attribute values; `nil` values are skipped (except by
/// count), and `min` and `max` skip `Double` NaN values too (which order against nothing).
enum Aggregation {
  static func apply(_ function: AggregateStatement.Function, _ values: [ModelValue]) throws
    -> ModelValue
  {
    let present = values.filter { !$0.isNull }
    switch function {
    case .count:
      return .int(Int64(values.count))
    case .sum:
      return try present.reduce(ModelValue.int(0)) { try Arithmetic.apply($0, .add, $1) }
    case .avg:
      guard !present.isEmpty else { return .null }
      let sum: ModelValue
      do {
        sum = try present.reduce(ModelValue.int(0)) { try Arithmetic.apply($0, .add, $1) }
      } catch {
        // Integers whose sum passes 64 bits: their mean, from the exact sum.
        guard let total = integerSum(present) else { throw error }
        return .double(NSDecimalNumber(decimal: total / Decimal(present.count)).doubleValue)
      }
      if case .decimal(let total) = sum {
        return .decimal(try DecimalMath.apply(total, .divide, Decimal(present.count)))
      }
      return .double((Arithmetic.double(sum) ?? 0) / Double(present.count))
    case .min:
      return present.filter { !GroupKey.isNaN($0) }.min { (Comparing.order($0, $1) ?? 0) < 0 }
        ?? .null
    case .max:
      return present.filter { !GroupKey.isNaN($0) }.max { (Comparing.order($0, $1) ?? 0) < 0 }
        ?? .null
    }
  }

  /// The exact sum of `values` when every one is an `Int` or `UInt` value; else `nil`.
  private static func integerSum(_ values: [ModelValue]) -> Decimal? {
    var total = Decimal(0)
    for value in values {
      switch value {
      case .int(let number): total += Decimal(number)
      case .uint(let number): total += Decimal(number)
      default: return nil
      }
    }
    return total
  }
}
