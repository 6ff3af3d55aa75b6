import ModelGraphCore

/// An integer between -(2^64 - 1) and 2^64 - 1, as a sign and a magnitude: the arithmetic of
/// `Int` and `UInt` values mixed, exact wherever the result fits one of them.
struct WideInteger {
  /// Whether the value is below zero (never for a zero magnitude).
  var isNegative: Bool
  var magnitude: UInt64

  init(isNegative: Bool, magnitude: UInt64) {
    self.isNegative = isNegative && magnitude != 0
    self.magnitude = magnitude
  }

  /// The value of an `.int` or `.uint`; `nil` for any other value.
  init?(_ value: ModelValue) {
    switch value {
    case .int(let number): self.init(isNegative: number < 0, magnitude: number.magnitude)
    case .uint(let number): self.init(isNegative: false, magnitude: number)
    default: return nil
    }
  }

  /// `lhs <op> rhs`, truncating division and a remainder with the dividend's sign (as Swift's);
  /// `nil` when the result is out of range.
  ///
  /// - Throws: ``EvaluationError`` for a division or remainder by zero.
  static func apply(_ lhs: WideInteger, _ op: QueryArithmeticOperator, _ rhs: WideInteger) throws
    -> WideInteger?
  {
    switch op {
    case .add: return sum(lhs, rhs)
    case .subtract:
      return sum(lhs, WideInteger(isNegative: !rhs.isNegative, magnitude: rhs.magnitude))
    case .multiply:
      let (product, overflow) = lhs.magnitude.multipliedReportingOverflow(by: rhs.magnitude)
      return overflow
        ? nil : WideInteger(isNegative: lhs.isNegative != rhs.isNegative, magnitude: product)
    case .divide, .remainder:
      guard rhs.magnitude != 0 else {
        throw EvaluationError(message: "division by zero in '\(op.rawValue)'")
      }
      return op == .divide
        ? WideInteger(
          isNegative: lhs.isNegative != rhs.isNegative, magnitude: lhs.magnitude / rhs.magnitude)
        : WideInteger(isNegative: lhs.isNegative, magnitude: lhs.magnitude % rhs.magnitude)
    }
  }

  private static func sum(_ lhs: WideInteger, _ rhs: WideInteger) -> WideInteger? {
    if lhs.isNegative == rhs.isNegative {
      let (total, overflow) = lhs.magnitude.addingReportingOverflow(rhs.magnitude)
      return overflow ? nil : WideInteger(isNegative: lhs.isNegative, magnitude: total)
    }
    // Opposite signs: the larger magnitude keeps its sign.
    return lhs.magnitude >= rhs.magnitude
      ? WideInteger(isNegative: lhs.isNegative, magnitude: lhs.magnitude - rhs.magnitude)
      : WideInteger(isNegative: rhs.isNegative, magnitude: rhs.magnitude - lhs.magnitude)
  }

  /// The value as a script value: `.uint` when `unsigned` (both operands were `UInt`) or past
  /// `Int64.max`, else `.int`; `nil` below `Int64.min`.
  func value(unsigned: Bool) -> ModelValue? {
    if isNegative {
      guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
      return .int(magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude))
    }
    if unsigned || magnitude > UInt64(Int64.max) { return .uint(magnitude) }
    return .int(Int64(magnitude))
  }
}
