import ModelGraphCore

/// Translates bound conditions into the engine's ``QueryExpression`` where it has an
/// equivalent; the rest is evaluated by the runner (``Evaluator``) on the engine's candidates.
enum QueryTranslation {
  /// The engine's form of `bound`, or `nil` when part of it has none: `[c]`/`[d]` options,
  /// `LIKE`, `MATCHES`, string `IN`, and `SUBQUERY(…).@count` other than compared with 0.
  static func translate(_ bound: Bound) -> QueryExpression? {
    switch bound {
    case .constant(let value): return .constant(value)
    case .object(let key): return .object(key)
    case .variable(let index): return .variable(index)
    case .attribute(let base, let name): return translate(base).map { .attribute($0, name) }
    case .relationship(let base, let name, _):
      return translate(base).map { .relationship($0, name) }
    case .cast(let base, let name): return translate(base).map { .cast($0, name) }
    case .typeTest(let base, let name, let isExact):
      return translate(base).map { .typeTest($0, name, isExact: isExact) }
    case .count(let base):
      if case .subquery = base { return nil }
      return translate(base).map { .count($0) }
    case .subquery, .query, .field, .dateArithmetic: return nil
    case .arithmetic(let lhs, let op, let rhs):
      guard let left = translate(lhs), let right = translate(rhs) else { return nil }
      return .arithmetic(left, op, right)
    case .negate(let operand): return translate(operand).map { .negative($0) }
    case .and(let operands):
      let translated = operands.compactMap(translate)
      return translated.count == operands.count ? .and(translated) : nil
    case .or(let operands):
      let translated = operands.compactMap(translate)
      return translated.count == operands.count ? .or(translated) : nil
    case .not(let operand): return translate(operand).map { .not($0) }
    case .list(let items):
      var values: [ModelValue] = []
      for item in items {
        guard case .constant(let value) = item else { return nil }
        values.append(value)
      }
      return .constant(.array(values))
    case .quantified(let quantifier, let collection, let variable, let body):
      guard let collection = translate(collection), let body = translate(body) else { return nil }
      switch quantifier {
      case .any: return .any(collection, variable: variable, body)
      case .all: return .all(collection, variable: variable, body)
      case .none: return .not(.any(collection, variable: variable, body))
      }
    case .compare(let lhs, let op, let rhs, let options, _):
      guard options.isEmpty else { return nil }
      return comparison(lhs, op, rhs)
    }
  }

  private static func comparison(_ lhs: Bound, _ op: Comparison.Operator, _ rhs: Bound)
    -> QueryExpression?
  {
    if case .count(.subquery(let collection, let variable, let body)) = lhs,
      case .constant(let value) = rhs, let existence = existence(op, value)
    {
      guard let collection = translate(collection), let body = translate(body) else { return nil }
      let any = QueryExpression.any(collection, variable: variable, body)
      return existence ? any : .not(any)
    }
    guard let left = translate(lhs), let right = translate(rhs) else { return nil }
    switch op {
    case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
      return .comparison(left, op.queryOperator!, right)
    case .beginsWith: return .string(left, .hasPrefix, right)
    case .endsWith: return .string(left, .hasSuffix, right)
    case .contains: return .string(left, .contains, right)
    case .in: return .contains(right, left)
    case .between:
      guard case .constant(.array(let bounds)) = right, bounds.count == 2 else { return nil }
      return .and([
        .comparison(left, .greaterOrEqual, .constant(bounds[0])),
        .comparison(left, .lessOrEqual, .constant(bounds[1])),
      ])
    case .like, .matches: return nil
    }
  }

  /// Whether a count compared with `value` by `op` only asks whether there is an element:
  /// `true` for "some", `false` for "none", `nil` otherwise.
  private static func existence(_ op: Comparison.Operator, _ value: ModelValue) -> Bool? {
    guard case .int(let number) = value else { return nil }
    switch (op, number) {
    case (.greater, 0), (.notEqual, 0), (.greaterOrEqual, 1): return true
    case (.equal, 0), (.less, 1), (.lessOrEqual, 0): return false
    default: return nil
    }
  }
}
