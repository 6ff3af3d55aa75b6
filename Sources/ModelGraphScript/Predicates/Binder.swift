import Foundation
import ModelGraphCore

/// Checks expressions against a catalog: every class, attribute and relationship exists, and
/// every operator gets operands of types it accepts; the result is a ``Bound`` tree.
struct Binder {
  let catalog: SchemaCatalog
  /// The class of `self`, when there is an object being tested or updated.
  let root: Int?
  /// The objects bound to script variables (`let $paris = insert …`).
  let scriptVariables: [String: ObjectKey]
  var scopes: [String: (index: Int, type: StaticType)] = [:]
  var nextVariable = 1
  /// The shape of a Codable type or field path (`Address`, `Address.geo`) inferred from the
  /// stored values, from which a field's type is read; `nil` where no data is at hand.
  var compositeShape: ((String) -> CompositeShape?)?
  /// Where the key paths that end at a `Float` attribute (or an array of `Float`s) are: a
  /// number compared with one is the nearest `Float`, as a Swift literal is.
  var floatKeyPaths: Set<SourceLocation> = []

  init(catalog: SchemaCatalog, root: Int?, scriptVariables: [String: ObjectKey]) {
    self.catalog = catalog
    self.root = root
    self.scriptVariables = scriptVariables
  }

  /// `expression` as a condition.
  mutating func condition(_ expression: Expression) throws -> Bound {
    let (bound, type) = try bind(expression)
    guard type == .scalar(.bool) else {
      throw ScriptError("expected a condition, not \(type)", at: expression.location)
    }
    return bound
  }

  /// `expression` with its static type.
  mutating func bind(_ expression: Expression) throws -> (Bound, StaticType) {
    let location = expression.location
    switch expression.kind {
    case .literal(let value):
      return (.constant(value), Self.type(of: value))
    case .list(let elements):
      var bound: [Bound] = []
      var element: ValueType?
      for item in elements {
        let (value, type) = try bind(item)
        switch type {
        case .scalar(let scalar):
          if let known = element, known != scalar,
            !(StaticType.scalar(known).isNumeric && type.isNumeric)
          {
            throw ScriptError("a list mixes \(known) and \(scalar) values", at: item.location)
          }
          element = element ?? scalar
        case .object, .null: break
        default:
          throw ScriptError("a list holds values or objects, not \(type)", at: item.location)
        }
        bound.append(value)
      }
      return (.list(bound), .list(element))
    case .this:
      guard let root else {
        throw ScriptError("'self' is only available in a condition or an update", at: location)
      }
      return (.variable(0), .object(root))
    case .variable(let name):
      if let scope = scopes[name] { return (.variable(scope.index), scope.type) }
      guard let key = scriptVariables[name] else {
        throw ScriptError("unknown variable $\(name)", at: location)
      }
      return (.object(key), .object(Int(key.entity)))
    case .member(let base, let name):
      let (bound, type) = try bind(base)
      return try member(bound, type, name, at: location)
    case .count(let base):
      let (bound, type) = try bind(base)
      switch type {
      case .objects, .scalar(.array), .scalar(.string), .list:
        return (.count(bound), .scalar(.int))
      default:
        throw ScriptError(
          "@count needs a to-many relationship, an array or a string, not \(type)", at: location)
      }
    case .cast(let base, let name):
      let (bound, type) = try bind(base)
      let target = try entity(name, at: location)
      try checkRelated(type, target, at: location)
      return (.cast(bound, name), .object(target))
    case .typeTest(let base, let name, let isExact):
      let (bound, type) = try bind(base)
      let target = try entity(name, at: location)
      try checkRelated(type, target, at: location)
      return (.typeTest(bound, name, isExact: isExact), .scalar(.bool))
    case .object:
      throw ScriptError(
        "a {field: value} literal is the value of a Codable attribute in insert or update;"
          + " it cannot be used here", at: location)
    case .subquery(let collection, let name, let body):
      let (bound, type) = try bind(collection)
      guard case .objects(let element) = type else {
        throw ScriptError(
          "SUBQUERY needs a to-many relationship, not \(type)", at: collection.location)
      }
      let variable = nextVariable
      nextVariable += 1
      let saved = scopes[name]
      scopes[name] = (variable, .object(element))
      defer { scopes[name] = saved }
      let condition = try self.condition(body)
      return (.subquery(bound, variable: variable, condition), .objects(element))
    case .query(let name, let condition):
      let target = try entity(name, at: location)
      var inner = Binder(catalog: catalog, root: target, scriptVariables: scriptVariables)
      let bound = try condition.map { try inner.condition($0) }
      return (.query(entity: target, bound), .objects(target))
    case .arithmetic(let lhs, let op, let rhs):
      var (left, leftType) = try bind(lhs)
      var (right, rightType) = try bind(rhs)
      // A literal takes the type of the key path it is combined with (2 becomes 2.0 beside a
      // Double), as in comparisons, so the engine gets operands of one type.
      if case .constant = right, case .scalar = leftType, leftType.isNumeric {
        right = coerceConstant(right, to: leftType)
        rightType = Self.type(of: { if case .constant(let v) = right { v } else { .null } }())
      } else if case .constant = left, case .scalar = rightType, rightType.isNumeric {
        left = coerceConstant(left, to: rightType)
        leftType = Self.type(of: { if case .constant(let v) = left { v } else { .null } }())
      }
      if leftType == .scalar(.date) || rightType == .scalar(.date) {
        return try dateArithmetic(left, leftType, op, right, rightType, at: lhs.location)
      }
      if op == .add, leftType == .scalar(.string), rightType == .scalar(.string) {
        return (.arithmetic(left, op, right), .scalar(.string))
      }
      guard leftType.isNumeric else {
        throw ScriptError("'\(op.rawValue)' needs numbers, not \(leftType)", at: lhs.location)
      }
      guard rightType.isNumeric else {
        throw ScriptError("'\(op.rawValue)' needs numbers, not \(rightType)", at: rhs.location)
      }
      let type: StaticType =
        leftType == rightType
        ? leftType
        : (leftType == .scalar(.decimal) || rightType == .scalar(.decimal))
          ? .scalar(.decimal) : .scalar(.double)
      return (.arithmetic(left, op, right), type)
    case .negate(let operand):
      let (bound, type) = try bind(operand)
      guard type.isNumeric else {
        throw ScriptError("'-' needs a number, not \(type)", at: operand.location)
      }
      return (.negate(bound), type)
    case .and(let operands):
      return (.and(try operands.map { try condition($0) }), .scalar(.bool))
    case .or(let operands):
      return (.or(try operands.map { try condition($0) }), .scalar(.bool))
    case .not(let operand):
      return (.not(try condition(operand)), .scalar(.bool))
    case .compare(let comparison):
      return (try compare(comparison), .scalar(.bool))
    }
  }

  private mutating func member(
    _ base: Bound, _ type: StaticType, _ name: String, at location: SourceLocation
  )
    throws -> (Bound, StaticType)
  {
    switch type {
    case .object(let index):
      let entity = catalog.entities[index]
      if let slot = entity.attributeSlot(named: name) {
        if entity.attributes[slot].isFloat32 { floatKeyPaths.insert(location) }
        return (.attribute(base, name), .scalar(entity.attributes[slot].valueType))
      }
      if let slot = entity.relationshipSlot(named: name) {
        let relationship = entity.relationships[slot]
        let destination = catalog.entity(named: relationship.destination)!.index
        return (
          .relationship(base, name, isToMany: relationship.isToMany),
          relationship.isToMany ? .objects(destination) : .object(destination)
        )
      }
      throw ScriptError(
        "\(entity.name) has no attribute or relationship '\(name)'"
          + entity.missingMemberHint(name), at: location)
    case .objects:
      throw ScriptError(
        "'\(name)' is reached through a to-many relationship; use ANY, ALL, NONE, @count or"
          + " SUBQUERY", at: location)
    case .scalar(.composite(let typeName)):
      let type = try fieldType(name, of: typeName, at: location)
      guard case .scalar(let valueType) = type else { return (.field(base, name, .double), type) }
      return (.field(base, name, valueType), type)
    default:
      throw ScriptError("\(type) has no property '\(name)'", at: location)
    }
  }

  private func entity(_ name: String, at location: SourceLocation) throws -> Int {
    guard let entity = catalog.entity(named: name) else {
      throw ScriptError("unknown class '\(name)'", at: location)
    }
    return entity.index
  }

  private func checkRelated(_ type: StaticType, _ target: Int, at location: SourceLocation) throws {
    guard case .object(let index) = type else {
      throw ScriptError("only objects have a class, not \(type)", at: location)
    }
    let base = catalog.entities[index]
    let other = catalog.entities[target]
    guard base.isKind(of: other) || other.isKind(of: base) else {
      throw ScriptError(
        "\(other.name) is neither a subclass nor a superclass of \(base.name); the test would"
          + " never hold", at: location)
    }
  }

  static func type(of value: ModelValue) -> StaticType {
    switch value {
    case .null: .null
    case .bool: .scalar(.bool)
    case .int: .scalar(.int)
    case .uint: .scalar(.uint)
    case .double: .scalar(.double)
    case .string: .scalar(.string)
    case .date: .scalar(.date)
    case .uuid: .scalar(.uuid)
    case .url: .scalar(.url)
    case .data: .scalar(.data)
    case .decimal: .scalar(.decimal)
    case .array(let values):
      .scalar(.array(values.first.flatMap { type(of: $0).valueType } ?? .string))
    }
  }
}

extension StaticType {
  /// The value type of a scalar.
  var valueType: ValueType? {
    if case .scalar(let type) = self { return type }
    return nil
  }
}
