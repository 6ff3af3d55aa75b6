import Foundation
import ModelGraphCore

/// `Decimal` conversions and arithmetic that report what does not fit instead of trapping:
/// Foundation's `Decimal` operators trap on overflow and underflow, `Decimal(Double)` traps on
/// an infinity and gives NaN for a double beyond about 1e165.
enum DecimalMath {
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

  /// The literal `text` as a `Decimal` when its `Double` value `nearest` loses some of its
  /// digits (`1.000000000000000000001`); `nil` when the `Double` says it exactly, or for a
  /// literal a `Decimal` cannot hold.
  static func literal(_ text: String, nearest: Double) -> Decimal? {
    guard nearest.isFinite,
      let exact = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !exact.isNaN,
      exact != decimal(nearest)
    else { return nil }
    return exact
  }

  /// The `Double` nearest to `number`, through its decimal text.
  static func double(_ number: Decimal) -> Double? {
    Double(number.description)
  }

  /// `a op b`.
  ///
  /// - Throws: ``EvaluationError`` for a division by zero, `%`, or a result out of range.
  static func apply(_ a: Decimal, _ op: QueryArithmeticOperator, _ b: Decimal) throws -> Decimal {
    guard !a.isNaN, !b.isNaN else { throw EvaluationError(message: "a Decimal value is NaN") }
    if op == .divide, b.isZero { throw EvaluationError(message: "division by zero") }
    if op == .remainder { throw EvaluationError(message: "'%' needs integers") }
    guard let result = DecimalArithmetic.result(a, op, b) else {
      throw EvaluationError(message: "the Decimal result of '\(op.rawValue)' is out of range")
    }
    return result
  }
}
