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

  /// The number `text` with every digit, as the lexer reads a literal: a `Decimal` where its
  /// nearest `Double` loses some digits (``literal(_:nearest:)``), else that `Double`.
  static func number(_ text: String) -> ModelValue {
    let nearest = Double(text) ?? .infinity
    return literal(text, nearest: nearest).map { .decimal($0) } ?? .double(nearest)
  }

  /// The literal `text` (digits, a point, an exponent, a leading sign) as a `Decimal` of
  /// exactly its value; `nil` when a `Decimal` cannot hold it: more than 38 significant
  /// digits, or beyond its range (Foundation's `Decimal(string:)` cuts extra digits).
  static func exact(_ text: String) -> Decimal? {
    guard let written = scientific(text) else { return nil }
    if written.digits.isEmpty { return 0 }
    guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")),
      !value.isNaN, let held = scientific(value.description), held == written
    else { return nil }
    return value
  }

  /// The sign, significant digits (no leading or trailing zeros; empty for zero) and the
  /// exponent of the last digit of a number's text; `nil` when it is not a plain number or
  /// its exponent is absurd.
  private static func scientific(_ text: String) -> (
    isNegative: Bool, digits: Substring, exponent: Int
  )? {
    var text = Substring(text)
    let isNegative = text.first == "-"
    if isNegative || text.first == "+" { text = text.dropFirst() }
    let parts = text.split(separator: "e", maxSplits: 1, omittingEmptySubsequences: false)
      .flatMap { $0.split(separator: "E", maxSplits: 1, omittingEmptySubsequences: false) }
    guard parts.count <= 2, let mantissa = parts.first else { return nil }
    var exponent = 0
    if parts.count == 2 {
      guard let written = Int(parts[1]), abs(written) < 1_000_000 else { return nil }
      exponent = written
    }
    let halves = mantissa.split(separator: ".", omittingEmptySubsequences: false)
    guard halves.count <= 2, halves.allSatisfy({ $0.allSatisfy(\.isASCII) }) else { return nil }
    let fraction = halves.count == 2 ? halves[1] : ""
    var digits = Substring(String(halves[0]) + fraction).drop { $0 == "0" }
    guard digits.allSatisfy(\.isNumber) else { return nil }
    exponent -= fraction.count
    while digits.last == "0" {
      digits = digits.dropLast()
      exponent += 1
    }
    return (isNegative && !digits.isEmpty, digits, digits.isEmpty ? 0 : exponent)
  }

  /// The `Double` nearest to `number`, through its decimal text.
  static func double(_ number: Decimal) -> Double? {
    Double(number.description)
  }

  /// `a op b`; NaN when an operand is NaN, as Foundation computes it (and the engine's
  /// predicates do).
  ///
  /// - Throws: ``EvaluationError`` for a division of a number by zero, `%`, or a result out
  ///   of range.
  static func apply(_ a: Decimal, _ op: QueryArithmeticOperator, _ b: Decimal) throws -> Decimal {
    if op == .remainder { throw EvaluationError(message: "'%' needs integers") }
    if a.isNaN || b.isNaN { return .nan }
    if op == .divide, b.isZero {
      throw EvaluationError(message: "division by zero in '\(op.rawValue)'")
    }
    guard let result = DecimalArithmetic.result(a, op, b) else {
      throw EvaluationError(message: "the Decimal result of '\(op.rawValue)' is out of range")
    }
    return result
  }
}
