import Foundation
import ModelGraphCore

/// Arithmetic on script values: integers stay integers (overflow is an error), a `Double` or
/// `Decimal` operand makes the result one, `+` joins strings, a date takes `±` a number of
/// seconds, and a date minus a date is the seconds between them.
enum Arithmetic {
  static func apply(_ left: ModelValue, _ op: QueryArithmeticOperator, _ right: ModelValue) throws
    -> ModelValue
  {
    if left.isNull || right.isNull { return .null }
    if let date = try dateResult(left, op, right) { return date }
    switch (left, right) {
    case (.string(let a), .string(let b)) where op == .add: return .string(a + b)
    case (.int(let a), .int(let b)): return .int(try integer(a, op, b))
    case (.uint, .uint), (.uint, .int), (.int, .uint):
      // Exact, as Swift's integers are; a `UInt` result past `Int64.max` stays unsigned.
      guard let a = WideInteger(left), let b = WideInteger(right),
        let result = try WideInteger.apply(a, op, b)?.value(
          unsigned: { if case .uint = left, case .uint = right { true } else { false } }())
      else { throw EvaluationError(message: "integer overflow in '\(op.rawValue)'") }
      return result
    case (.decimal, _), (_, .decimal):
      for value in [left, right] where double(value) != nil && decimal(value) == nil {
        throw EvaluationError(message: "\(value) is beyond the range of Decimal")
      }
      guard let a = decimal(left), let b = decimal(right) else { break }
      return .decimal(try DecimalMath.apply(a, op, b))
    default:
      guard let a = double(left), let b = double(right) else { break }
      switch op {
      case .add: return .double(a + b)
      case .subtract: return .double(a - b)
      case .multiply: return .double(a * b)
      case .divide, .remainder:
        guard b != 0 else { throw EvaluationError(message: "division by zero in '\(op.rawValue)'") }
        return .double(op == .divide ? a / b : a.truncatingRemainder(dividingBy: b))
      }
    }
    throw EvaluationError(
      message: "'\(op.rawValue)' cannot combine \(ValueCoercion.typeName(of: left)) and"
        + " \(ValueCoercion.typeName(of: right))")
  }

  /// `date ± seconds`, `seconds + date` or `date - date`; `nil` for other operands.
  ///
  /// - Throws: ``EvaluationError`` for a date out of ``DateRange``.
  private static func dateResult(
    _ left: ModelValue, _ op: QueryArithmeticOperator, _ right: ModelValue
  ) throws -> ModelValue? {
    switch (left, right) {
    case (.date(let a), .date(let b)) where op == .subtract:
      return .double(a.timeIntervalSince(b))
    case (.date(let date), _) where op == .add || op == .subtract:
      guard let seconds = double(right) else { return nil }
      return .date(try DateRange.checked(date.addingTimeInterval(op == .add ? seconds : -seconds)))
    case (_, .date(let date)) where op == .add:
      guard let seconds = double(left) else { return nil }
      return .date(try DateRange.checked(date.addingTimeInterval(seconds)))
    default:
      return nil
    }
  }

  private static func integer(_ a: Int64, _ op: QueryArithmeticOperator, _ b: Int64) throws -> Int64
  {
    let (result, overflow): (Int64, Bool)
    switch op {
    case .add: (result, overflow) = a.addingReportingOverflow(b)
    case .subtract: (result, overflow) = a.subtractingReportingOverflow(b)
    case .multiply: (result, overflow) = a.multipliedReportingOverflow(by: b)
    case .divide, .remainder:
      guard b != 0 else { throw EvaluationError(message: "division by zero in '\(op.rawValue)'") }
      (result, overflow) =
        op == .divide
        ? a.dividedReportingOverflow(by: b) : a.remainderReportingOverflow(dividingBy: b)
    }
    guard !overflow else { throw EvaluationError(message: "integer overflow in '\(op.rawValue)'") }
    return result
  }

  static func double(_ value: ModelValue) -> Double? {
    switch value {
    case .int(let number): Double(number)
    case .uint(let number): Double(number)
    case .double(let number): number
    case .decimal(let number): NSDecimalNumber(decimal: number).doubleValue
    default: nil
    }
  }

  static func decimal(_ value: ModelValue) -> Decimal? {
    switch value {
    case .int(let number): Decimal(number)
    case .uint(let number): Decimal(number)
    case .double(let number): DecimalMath.decimal(number)
    case .decimal(let number): number
    default: nil
    }
  }
}
