public import Foundation

/// `Decimal` arithmetic that reports a result out of range instead of stopping the process:
/// Foundation's `Decimal` operators (and `NSDecimalMultiply`) trap on overflow and underflow.
public enum DecimalArithmetic {
  /// The largest power of ten a checked result reaches (a `Decimal` holds about 3.4e165).
  public static let maximumMagnitude = 160

  /// `a op b`, or `nil` when an operand is NaN, `b` is zero in a division, the operator is
  /// `%`, or the result could leave `Decimal`'s range (checked conservatively, before
  /// computing).
  public static func result(_ a: Decimal, _ op: QueryArithmeticOperator, _ b: Decimal)
    -> Decimal?
  {
    guard !a.isNaN, !b.isNaN, op != .remainder, !(op == .divide && b.isZero),
      fits(a, op, b)
    else { return nil }
    switch op {
    case .add: return a + b
    case .subtract: return a - b
    case .multiply: return a * b
    default: return a / b
    }
  }

  /// Whether Foundation computes `a op b` without overflow or underflow (conservatively).
  public static func fits(_ a: Decimal, _ op: QueryArithmeticOperator, _ b: Decimal) -> Bool {
    if a.isZero || b.isZero { return true }
    let (ma, mb) = (magnitude(a), magnitude(b))
    switch op {
    case .add, .subtract:
      return max(ma, mb) + 1 <= maximumMagnitude
    case .multiply:
      // The exact product's exponent, after dropping the digits beyond Decimal's 38.
      let exponent = a.exponent + b.exponent + max(0, digits(a) + digits(b) - 39)
      return ma + mb + 1 <= maximumMagnitude && exponent >= -128
    default:
      return ma - mb <= maximumMagnitude && ma - mb - 1 >= -88
    }
  }

  /// The power of ten of the leading digit.
  private static func magnitude(_ value: Decimal) -> Int {
    Int(log10(abs(NSDecimalNumber(decimal: value).doubleValue)).rounded(.down))
  }

  private static func digits(_ value: Decimal) -> Int {
    value.significand.magnitude.description.count
  }
}
