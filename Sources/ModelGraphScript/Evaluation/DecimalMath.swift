import Foundation
import ModelGraphCore

/// `Decimal` conversions and arithmetic that report what does not fit instead of trapping:
/// Foundation's `Decimal` operators trap on overflow and underflow, `Decimal(Double)` traps on
/// an infinity and gives NaN for a double beyond about 1e165.
enum DecimalMath {
  /// The largest power of ten the runner's Decimal results reach (Decimal holds about 3.4e165).
  static let maximumMagnitude = 160

  /// `number` as a `Decimal`, through its shortest decimal text (so 0.1 stays 0.1); `nil` when
  /// it is not finite or beyond what a `Decimal` holds.
  static func decimal(_ number: Double) -> Decimal? {
    guard number.isFinite else { return nil }
    if number == 0 { return 0 }
    guard let value = Decimal(string: "\(number)", locale: Locale(identifier: "en_US_POSIX")),
      !value.isNaN
    else { return nil }
    return value
  }

  /// `a op b`.
  ///
  /// - Throws: ``EvaluationError`` for a division by zero, `%`, or a result out of range.
  static func apply(_ a: Decimal, _ op: QueryArithmeticOperator, _ b: Decimal) throws -> Decimal {
    guard !a.isNaN, !b.isNaN else { throw EvaluationError(message: "a Decimal value is NaN") }
    if op == .divide, b.isZero { throw EvaluationError(message: "division by zero") }
    if op == .remainder { throw EvaluationError(message: "'%' needs integers") }
    guard fits(a, op, b) else {
      throw EvaluationError(message: "the Decimal result of '\(op.rawValue)' is out of range")
    }
    switch op {
    case .add: return a + b
    case .subtract: return a - b
    case .multiply: return a * b
    default: return a / b
    }
  }

  /// Whether Foundation computes `a op b` without overflow or underflow (conservatively).
  private static func fits(_ a: Decimal, _ op: QueryArithmeticOperator, _ b: Decimal) -> Bool {
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
