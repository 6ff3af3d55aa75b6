import Foundation
import ModelGraphCore

/// Evaluates bound expressions on objects of a session: the parts of a condition the engine
/// has no equivalent for, and the values of `insert` and `update`.
struct Evaluator {
  let session: Session
  let catalog: SchemaCatalog
  /// Whether Ctrl-C stops the evaluation (``Interrupt``).
  let interruptible: Bool
  /// The objects of `(Entity where …)`.
  let query: (Int, Bound?) throws -> [ObjectKey]

  /// `bound` as a condition on the object `key`.
  func test(_ bound: Bound, on key: ObjectKey) throws -> Bool {
    if interruptible { try Interrupt.check() }
    return try evaluate(bound, [0: .object(key)]).isTrue
  }

  func evaluate(_ bound: Bound, _ bindings: [Int: RunValue]) throws -> RunValue {
    switch bound {
    case .constant(let value): return .value(value)
    case .object(let key):
      // A deleted object's key stays a key (it equals no live object), as in the engine.
      return .object(key)
    case .variable(let index): return bindings[index] ?? .value(.null)
    case .list(let items):
      var values: [ModelValue] = []
      var keys: [ObjectKey] = []
      for item in items {
        switch try evaluate(item, bindings) {
        case .value(let value): values.append(value)
        case .object(let key): if let key { keys.append(key) }
        case .objects(let more): keys += more
        }
      }
      return keys.isEmpty ? .value(.array(values)) : .objects(keys)
    case .attribute(let base, let name):
      guard case .object(let key?) = try evaluate(base, bindings) else { return .value(.null) }
      return .value(attribute(name, of: key))
    case .field(let base, let name, let type):
      guard case .value(let value) = try evaluate(base, bindings) else { return .value(.null) }
      return .value(CompositeField.value(of: name, in: value, as: type))
    case .relationship(let base, let name, let isToMany):
      guard case .object(let key?) = try evaluate(base, bindings) else {
        return isToMany ? .objects([]) : .object(nil)
      }
      let keys = related(name, of: key)
      return isToMany ? .objects(keys) : .object(keys.first)
    case .cast(let base, let name):
      guard case .object(let key?) = try evaluate(base, bindings),
        let target = catalog.entity(named: name)
      else { return .object(nil) }
      return .object(catalog.entities[Int(key.entity)].isKind(of: target) ? key : nil)
    case .typeTest(let base, let name, let isExact):
      guard case .object(let key?) = try evaluate(base, bindings),
        let target = catalog.entity(named: name)
      else { return .value(.bool(false)) }
      let entity = catalog.entities[Int(key.entity)]
      return .value(.bool(isExact ? entity.index == target.index : entity.isKind(of: target)))
    case .count(let base):
      switch try evaluate(base, bindings) {
      case .objects(let keys): return .value(.int(Int64(keys.count)))
      case .value(.array(let values)): return .value(.int(Int64(values.count)))
      case .value(.string(let text)): return .value(.int(Int64(text.count)))
      default: return .value(.null)
      }
    case .subquery(let collection, let variable, let body):
      guard case .objects(let keys) = try evaluate(collection, bindings) else {
        return .objects([])
      }
      var matching: [ObjectKey] = []
      var inner = bindings
      for key in keys {
        inner[variable] = .object(key)
        if try evaluate(body, inner).isTrue { matching.append(key) }
      }
      return .objects(matching)
    case .query(let entity, let condition):
      return .objects(try query(entity, condition))
    case .arithmetic(let lhs, let op, let rhs), .dateArithmetic(let lhs, let op, let rhs):
      guard case .value(let left) = try evaluate(lhs, bindings),
        case .value(let right) = try evaluate(rhs, bindings)
      else { return .value(.null) }
      return .value(try Arithmetic.apply(left, op, right))
    case .negate(let operand):
      guard case .value(let value) = try evaluate(operand, bindings) else { return .value(.null) }
      return .value(try Arithmetic.apply(.int(0), .subtract, value))
    case .and(let operands):
      for operand in operands where !(try evaluate(operand, bindings).isTrue) {
        return .value(.bool(false))
      }
      return .value(.bool(true))
    case .or(let operands):
      for operand in operands where try evaluate(operand, bindings).isTrue {
        return .value(.bool(true))
      }
      return .value(.bool(false))
    case .not(let operand):
      return .value(.bool(!(try evaluate(operand, bindings).isTrue)))
    case .quantified(let quantifier, let collection, let variable, let body):
      let elements: [RunValue]
      switch try evaluate(collection, bindings) {
      case .objects(let keys): elements = keys.map { .object($0) }
      case .value(.array(let values)): elements = values.map { .value($0) }
      default: elements = []
      }
      var inner = bindings
      var found = false
      var every = true
      for element in elements {
        inner[variable] = element
        if try evaluate(body, inner).isTrue { found = true } else { every = false }
      }
      switch quantifier {
      case .any: return .value(.bool(found))
      case .all: return .value(.bool(every))
      case .none: return .value(.bool(!found))
      }
    case .compare(let lhs, let op, let rhs, let options, let pattern):
      let left = try evaluate(lhs, bindings)
      let right = try evaluate(rhs, bindings)
      return .value(.bool(Comparing.test(left, op, right, options: options, pattern: pattern)))
    }
  }

  /// The value of attribute `name` of the object `key` in the session, `nil` when it is gone.
  func attribute(_ name: String, of key: ObjectKey) -> ModelValue {
    let entity = Int(key.entity)
    let table = session.table(entity)
    guard table.contains(key), let slot = catalog.entities[entity].attributeSlot(named: name)
    else { return .null }
    return table.attributeColumns[slot].value(at: Int(key.row))
  }

  /// The live objects relationship `name` of `key` holds, in order.
  func related(_ name: String, of key: ObjectKey) -> [ObjectKey] {
    let entity = Int(key.entity)
    let table = session.table(entity)
    guard table.contains(key), let slot = catalog.entities[entity].relationshipSlot(named: name)
    else { return [] }
    return table.relatedKeys(row: Int(key.row), slot: slot).filter { session.contains($0) }
  }
}
