import Foundation

/// Operations in a `#Predicate` that `Predicate.evaluate` computes with Swift's operators,
/// which stop the process where a result overflows or a divisor is zero: `+`, `-`, `*`, `/`
/// and `%` on integers, unary minus on a signed integer (but of a constant other than the
/// type's minimum: `-1`), and `+`, `-` and `*` on `Decimal`s. Floating-point arithmetic never
/// stops the process. A range built in the predicate (`a...b`, `a..<b`) stops it too where its
/// lower bound is above its upper one, so one whose bounds are not constants in order counts.
enum TrappingArithmetic {
  /// The first such operation in `node` (a `PredicateExpression` tree, read through
  /// `Mirror`), described (`'*' on Int`); `nil` when it has none.
  static func first(in node: Any) -> String? {
    if let trapping = node as? any _TrappingNode, let found = trapping.trappingOperation {
      return found
    }
    // A captured value holds no arithmetic, and may be large (an array).
    if node is any _ValueNode { return nil }
    for child in Mirror(reflecting: node).children {
      if let found = first(in: child.value) { return found }
    }
    return nil
  }

  /// Whether arithmetic on values of `type` can stop the process.
  static func traps(_ type: Any.Type) -> Bool {
    type is any FixedWidthInteger.Type || type == Decimal.self
  }
}

/// A `PredicateExpressions` node whose evaluation can stop the process.
protocol _TrappingNode {
  /// `'op' on Type` when the node's operation can stop the process; else `nil`.
  var trappingOperation: String? { get }
}

/// `PredicateExpressions.Value`, seen without its type.
protocol _ValueNode {}

extension PredicateExpressions.Value: _ValueNode {}

extension PredicateExpressions.Arithmetic: _TrappingNode {
  var trappingOperation: String? {
    guard TrappingArithmetic.traps(LHS.Output.self) else { return nil }
    return "'\(symbol)' on \(LHS.Output.self)"
  }
}

extension PredicateExpressions.IntDivision: _TrappingNode {
  var trappingOperation: String? { "'/' on \(LHS.Output.self)" }
}

extension PredicateExpressions.IntRemainder: _TrappingNode {
  var trappingOperation: String? { "'%' on \(LHS.Output.self)" }
}

extension PredicateExpressions.UnaryMinus: _TrappingNode {
  var trappingOperation: String? {
    guard Wrapped.Output.self is any FixedWidthInteger.Type else { return nil }
    // A negative literal (`-1`) is the negation of a constant, which traps only on `.min`.
    if let constant = wrapped as? PredicateExpressions.Value<Wrapped.Output>,
      let integer = constant.value as? any FixedWidthInteger, !isMinimum(integer)
    {
      return nil
    }
    return "'-' on \(Wrapped.Output.self)"
  }
}

private func isMinimum<T: FixedWidthInteger>(_ value: T) -> Bool { value == T.min }

extension PredicateExpressions.Range: _TrappingNode {
  var trappingOperation: String? { rangeTrap(lower, upper, "..<") }
}

extension PredicateExpressions.ClosedRange: _TrappingNode {
  var trappingOperation: String? { rangeTrap(lower, upper, "...") }
}

/// `'op' on Type` for a range built from `lower` and `upper`, unless both are constants in
/// order (Swift stops the process on a lower bound above the upper one).
private func rangeTrap<Lower: PredicateExpression, Upper: PredicateExpression>(
  _ lower: Lower, _ upper: Upper, _ symbol: String
) -> String? where Lower.Output == Upper.Output, Lower.Output: Comparable {
  if let lower = lower as? PredicateExpressions.Value<Lower.Output>,
    let upper = upper as? PredicateExpressions.Value<Upper.Output>, lower.value <= upper.value
  {
    return nil
  }
  return "'\(symbol)' on \(Lower.Output.self)"
}
