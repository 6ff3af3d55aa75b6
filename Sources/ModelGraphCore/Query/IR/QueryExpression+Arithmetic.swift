extension QueryExpression {
  /// Whether the expression computes arithmetic (`+`, `-`, `*`, `/`, `%` or a negation), which
  /// can fault on a row (``QueryError/Code/arithmeticOverflow``,
  /// ``QueryError/Code/divisionByZero``).
  ///
  /// A front end that tests some conjuncts itself keeps those written after its first one
  /// that compute arithmetic out of the engine's condition, which runs first, so that a guard
  /// it tests keeps the rows it excludes from being computed on.
  public var hasArithmetic: Bool {
    switch self {
    case .arithmetic, .negative: true
    case .constant, .object, .variable, .opaque: false
    case .attribute(let base, _), .relationship(let base, _), .cast(let base, _),
      .typeTest(let base, _, _), .not(let base), .count(let base):
      base.hasArithmetic
    case .and(let operands), .or(let operands): operands.contains { $0.hasArithmetic }
    case .comparison(let lhs, _, let rhs), .string(let lhs, _, let rhs),
      .caseInsensitiveCompare(let lhs, let rhs), .coalesce(let lhs, let rhs),
      .contains(let lhs, let rhs), .flatMap(let lhs, _, let rhs), .any(let lhs, _, let rhs),
      .all(let lhs, _, let rhs):
      lhs.hasArithmetic || rhs.hasArithmetic
    case .conditional(let test, let then, let otherwise):
      test.hasArithmetic || then.hasArithmetic || otherwise.hasArithmetic
    }
  }
}
