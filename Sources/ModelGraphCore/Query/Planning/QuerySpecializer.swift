/// Simplifies an expression for the tables of one class: type tests of the tested object
/// become constants, casts of it become the object or `nil`, and constants fold.
///
/// A deep query plans each table of the hierarchy separately; a condition that specializes to
/// `false` for a class prunes that class's table, which is how `$0 is BusinessTrip` and
/// `if let p = $0 as? PersonalTrip { … } else { false }` skip tables without reading them.
struct QuerySpecializer {
  let catalog: SchemaCatalog
  /// The class of the table planned.
  let entity: ResolvedEntity

  /// `expression` simplified for rows of ``entity``.
  func specialize(_ expression: QueryExpression) -> QueryExpression {
    expression.isSpecializable ? specializeNode(expression) : expression
  }

  private func specializeNode(_ expression: QueryExpression) -> QueryExpression {
    switch expression {
    case .constant, .object, .variable, .opaque:
      return expression
    case .typeTest(.variable(0), let name, let isExact):
      guard let target = catalog.entity(named: name) else { return expression }
      let matches = isExact ? target.index == entity.index : entity.isKind(of: target)
      return .constant(.bool(matches))
    case .typeTest(let base, let name, let isExact):
      let base = specialize(base)
      if base.isNull { return .alwaysFalse }
      return .typeTest(base, name, isExact: isExact)
    case .cast(.variable(0), let name):
      guard let target = catalog.entity(named: name) else { return expression }
      return entity.isKind(of: target) ? .root : .constant(.null)
    case .cast(let base, let name):
      let base = specialize(base)
      return base.isNull ? base : .cast(base, name)
    case .attribute(let base, let name):
      let base = specialize(base)
      return base.isNull ? base : .attribute(base, name)
    case .relationship(let base, let name):
      let base = specialize(base)
      return base.isNull ? base : .relationship(base, name)
    case .and(let operands):
      return conjunction(operands.map(specialize))
    case .or(let operands):
      return disjunction(operands.map(specialize))
    case .not(let operand):
      let operand = specialize(operand)
      if case .constant(.bool(let value)) = operand { return .constant(.bool(!value)) }
      return .not(operand)
    case .comparison(let lhs, let op, let rhs):
      let lhs = specialize(lhs)
      let rhs = specialize(rhs)
      if lhs.isNull && rhs.isNull { return .constant(.bool(op == .equal)) }
      if (lhs.isNull || rhs.isNull) && op.isOrdering { return .alwaysFalse }
      if (lhs.isNull && rhs == .root) || (rhs.isNull && lhs == .root) {
        return .constant(.bool(op == .notEqual))
      }
      return .comparison(lhs, op, rhs)
    case .arithmetic(let lhs, let op, let rhs):
      return .arithmetic(specialize(lhs), op, specialize(rhs))
    case .negative(let operand):
      return .negative(specialize(operand))
    case .narrow(let operand, let width):
      return .narrow(specialize(operand), width)
    case .string(let lhs, let op, let rhs):
      let lhs = specialize(lhs)
      let rhs = specialize(rhs)
      return lhs.isNull || rhs.isNull ? .alwaysFalse : .string(lhs, op, rhs)
    case .caseInsensitiveCompare(let lhs, let rhs):
      return .caseInsensitiveCompare(specialize(lhs), specialize(rhs))
    case .coalesce(let lhs, let rhs):
      let lhs = specialize(lhs)
      let rhs = specialize(rhs)
      if lhs.isNull { return rhs }
      if lhs.isNeverNil || rhs.isNull { return lhs }
      return .coalesce(lhs, rhs)
    case .conditional(let test, let then, let otherwise):
      let test = specialize(test)
      if case .constant(.bool(let value)) = test { return specialize(value ? then : otherwise) }
      return .conditional(test, specialize(then), specialize(otherwise))
    case .flatMap(let base, let variable, let body):
      let base = specialize(base)
      if base.isNull { return base }
      if base == .root { return specialize(body.substituting(variable, with: .root)) }
      return .flatMap(base, variable: variable, specialize(body))
    case .count(let operand):
      return .count(specialize(operand))
    case .contains(let collection, let element):
      return .contains(specialize(collection), specialize(element))
    case .any(let collection, let variable, let body):
      let collection = specialize(collection)
      return collection.isNull
        ? .alwaysFalse : .any(collection, variable: variable, specialize(body))
    case .all(let collection, let variable, let body):
      let collection = specialize(collection)
      return collection.isNull
        ? .alwaysTrue : .all(collection, variable: variable, specialize(body))
    }
  }

  private func conjunction(_ operands: [QueryExpression]) -> QueryExpression {
    var kept: [QueryExpression] = []
    for operand in operands {
      switch operand {
      case .constant(.bool(true)): continue
      case .constant(.bool(false)): return .alwaysFalse
      case .and(let nested): kept += nested
      default: kept.append(operand)
      }
    }
    return kept.count == 1 ? kept[0] : kept.isEmpty ? .alwaysTrue : .and(kept)
  }

  private func disjunction(_ operands: [QueryExpression]) -> QueryExpression {
    var kept: [QueryExpression] = []
    for operand in operands {
      switch operand {
      case .constant(.bool(false)): continue
      case .constant(.bool(true)): return .alwaysTrue
      case .or(let nested): kept += nested
      default: kept.append(operand)
      }
    }
    return kept.count == 1 ? kept[0] : kept.isEmpty ? .alwaysFalse : .or(kept)
  }
}

extension QueryExpression {
  /// Whether `other` is this expression left as it was by specialization (cheap: it compares
  /// the top-level conjuncts only when neither could have been specialized).
  func isShared(with other: QueryExpression) -> Bool {
    !isSpecializable && !other.isSpecializable && self == other
  }

  /// Whether specializing could change the expression: it holds a type test, a cast, an
  /// optional operation, a conditional, or a `nil` or Boolean constant to fold.
  var isSpecializable: Bool {
    switch self {
    case .typeTest, .cast, .flatMap, .coalesce, .conditional: true
    case .constant(let value): value.isNull || value == .bool(true) || value == .bool(false)
    case .object, .variable, .opaque: false
    case .attribute(let base, _), .relationship(let base, _), .not(let base), .negative(let base),
      .count(let base), .narrow(let base, _):
      base.isSpecializable
    case .and(let operands), .or(let operands): operands.contains { $0.isSpecializable }
    case .comparison(let lhs, _, let rhs), .arithmetic(let lhs, _, let rhs),
      .string(let lhs, _, let rhs), .caseInsensitiveCompare(let lhs, let rhs),
      .contains(let lhs, let rhs), .any(let lhs, _, let rhs), .all(let lhs, _, let rhs):
      lhs.isSpecializable || rhs.isSpecializable
    }
  }

  /// Whether this is the `nil` constant.
  var isNull: Bool { self == .constant(.null) }

  /// Whether the expression is a condition, which is never `nil` (so `?? x` is the condition).
  var isNeverNil: Bool {
    switch self {
    case .and, .or, .not, .comparison, .typeTest, .string, .contains, .any, .all: true
    case .constant(let value): !value.isNull
    default: false
    }
  }

  /// The expression with `variable` replaced by `replacement`.
  func substituting(_ variable: Int, with replacement: QueryExpression) -> QueryExpression {
    func walk(_ expression: QueryExpression) -> QueryExpression {
      expression.substituting(variable, with: replacement)
    }
    switch self {
    case .variable(let index): return index == variable ? replacement : self
    case .constant, .object, .opaque: return self
    case .attribute(let base, let name): return .attribute(walk(base), name)
    case .relationship(let base, let name): return .relationship(walk(base), name)
    case .cast(let base, let name): return .cast(walk(base), name)
    case .typeTest(let base, let name, let isExact):
      return .typeTest(walk(base), name, isExact: isExact)
    case .and(let operands): return .and(operands.map(walk))
    case .or(let operands): return .or(operands.map(walk))
    case .not(let operand): return .not(walk(operand))
    case .comparison(let lhs, let op, let rhs): return .comparison(walk(lhs), op, walk(rhs))
    case .arithmetic(let lhs, let op, let rhs): return .arithmetic(walk(lhs), op, walk(rhs))
    case .negative(let operand): return .negative(walk(operand))
    case .narrow(let operand, let width): return .narrow(walk(operand), width)
    case .string(let lhs, let op, let rhs): return .string(walk(lhs), op, walk(rhs))
    case .caseInsensitiveCompare(let lhs, let rhs):
      return .caseInsensitiveCompare(walk(lhs), walk(rhs))
    case .coalesce(let lhs, let rhs): return .coalesce(walk(lhs), walk(rhs))
    case .conditional(let test, let then, let otherwise):
      return .conditional(walk(test), walk(then), walk(otherwise))
    case .flatMap(let base, let index, let body):
      return .flatMap(walk(base), variable: index, walk(body))
    case .count(let operand): return .count(walk(operand))
    case .contains(let collection, let element): return .contains(walk(collection), walk(element))
    case .any(let collection, let index, let body):
      return .any(walk(collection), variable: index, walk(body))
    case .all(let collection, let index, let body):
      return .all(walk(collection), variable: index, walk(body))
    }
  }
}
