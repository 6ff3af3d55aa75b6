extension QueryExpression {
  /// Whether `test` holds for the expression or any expression inside it (its operands, the
  /// base of a key path, the body of a closure).
  ///
  /// - Complexity: O(size of the expression).
  func containsNode(where test: (QueryExpression) -> Bool) -> Bool {
    if test(self) { return true }
    switch self {
    case .constant, .object, .variable, .opaque: return false
    case .attribute(let base, _), .relationship(let base, _), .cast(let base, _),
      .typeTest(let base, _, _), .not(let base), .negative(let base), .count(let base),
      .narrow(let base, _):
      return base.containsNode(where: test)
    case .and(let operands), .or(let operands):
      return operands.contains { $0.containsNode(where: test) }
    case .comparison(let lhs, _, let rhs), .arithmetic(let lhs, _, let rhs),
      .string(let lhs, _, let rhs), .caseInsensitiveCompare(let lhs, let rhs),
      .coalesce(let lhs, let rhs), .contains(let lhs, let rhs), .flatMap(let lhs, _, let rhs),
      .any(let lhs, _, let rhs), .all(let lhs, _, let rhs):
      return lhs.containsNode(where: test) || rhs.containsNode(where: test)
    case .conditional(let condition, let then, let otherwise):
      return condition.containsNode(where: test) || then.containsNode(where: test)
        || otherwise.containsNode(where: test)
    }
  }
}
