extension QueryExpression {
  /// Whether the expression computes arithmetic (`+`, `-`, `*`, `/`, `%` or a negation), which
  /// can fault on a row (``QueryError/Code/arithmeticOverflow``,
  /// ``QueryError/Code/divisionByZero``).
  ///
  /// A front end that tests some conjuncts itself keeps those written after its first one
  /// that compute arithmetic out of the engine's condition, which runs first, so that a guard
  /// it tests keeps the rows it excludes from being computed on.
  public var hasArithmetic: Bool {
    containsNode {
      switch $0 {
      case .arithmetic, .negative, .narrow: true
      default: false
      }
    }
  }
}
