/// An arithmetic fault a compiled expression met on a row: an integer result out of range, an
/// integer division or remainder by zero, or a `Decimal` result out of `Decimal`'s range or
/// divided by zero — where Swift would stop the process.
struct ArithmeticFault {
  /// ``QueryError/Code/arithmeticOverflow`` or ``QueryError/Code/divisionByZero``.
  let code: QueryError.Code
  /// The operator, as written (`+`, `-`, `*`, `/`, `%`; `-` also for a negation).
  let op: String
  /// Whether the values were `Decimal`s.
  let isDecimal: Bool

  /// The error a query that met the fault throws.
  var error: QueryError {
    switch code {
    case .divisionByZero: QueryError(code, "division by zero in '\(op)'")
    default:
      isDecimal
        ? QueryError(code, "the Decimal result of '\(op)' is out of range")
        : QueryError(code, "integer overflow in '\(op)'")
    }
  }
}

/// Where the functions of one compilation record the first arithmetic fault they meet.
///
/// A compiled row function takes only a row, and a fault cannot be thrown from it: it records
/// the fault here and gives `nil`, and the plan that runs it clears the slot before the run
/// and throws the fault after it (``QueryPlan/guardingFaults(_:)``). One slot per compilation,
/// made only when it compiles arithmetic that can fault, so a condition without any costs
/// nothing. Not `Sendable`: it belongs to the plan (and its session) that compiled it.
final class ArithmeticFaultSlot {
  /// The first fault met since the slot was last cleared.
  var fault: ArithmeticFault?

  init() {}

  /// Records `fault` unless one is recorded already.
  @inline(never)
  func record(_ code: QueryError.Code, _ op: QueryArithmeticOperator, isDecimal: Bool = false) {
    if fault == nil { fault = ArithmeticFault(code: code, op: op.rawValue, isDecimal: isDecimal) }
  }
}
