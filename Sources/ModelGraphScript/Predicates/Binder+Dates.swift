import Foundation
import ModelGraphCore

extension Binder {
  /// `date ± seconds`, `seconds + date` and `date - date` (in seconds). Over constants it is
  /// folded to a constant so the engine compares a column with a value (`startDate > now() -
  /// 7 days` can use an index); over key paths (`startDate + 3 days < endDate`, `endDate -
  /// startDate > 7 days`) the runner computes it on the engine's candidates.
  ///
  /// - Throws: ``ScriptError`` at `location` for another operator or operand.
  func dateArithmetic(
    _ left: Bound, _ leftType: StaticType, _ op: QueryArithmeticOperator, _ right: Bound,
    _ rightType: StaticType, at location: SourceLocation
  ) throws -> (Bound, StaticType) {
    guard case .constant(let a) = left, case .constant(let b) = right else {
      let date = StaticType.scalar(.date)
      switch op {
      case .add where leftType == date && rightType.isNumeric,
        .subtract where leftType == date && rightType.isNumeric,
        .add where leftType.isNumeric && rightType == date:
        return (.dateArithmetic(left, op, right), date)
      case .subtract where leftType == date && rightType == date:
        return (.dateArithmetic(left, op, right), .scalar(.double))
      default:
        throw unsupported(leftType, op, rightType, at: location)
      }
    }
    if a.isNull || b.isNull { return (.constant(.null), .scalar(.date)) }
    switch (a, b) {
    case (.date(let date), _) where op == .add || op == .subtract:
      if let seconds = Arithmetic.double(b) {
        let folded = date.addingTimeInterval(op == .add ? seconds : -seconds)
        return (.constant(.date(try Self.inRange(folded, at: location))), .scalar(.date))
      }
      if case .date(let other) = b, op == .subtract {
        return (.constant(.double(date.timeIntervalSince(other))), .scalar(.double))
      }
    case (_, .date(let date)) where op == .add:
      if let seconds = Arithmetic.double(a) {
        let folded = date.addingTimeInterval(seconds)
        return (.constant(.date(try Self.inRange(folded, at: location))), .scalar(.date))
      }
    default:
      break
    }
    throw unsupported(leftType, op, rightType, at: location)
  }

  private static func inRange(_ date: Date, at location: SourceLocation) throws -> Date {
    do { return try DateRange.checked(date) } catch {
      throw ScriptError(DateRange.message, at: location)
    }
  }

  private func unsupported(
    _ leftType: StaticType, _ op: QueryArithmeticOperator, _ rightType: StaticType,
    at location: SourceLocation
  ) -> ScriptError {
    ScriptError(
      "'\(op.rawValue)' cannot combine \(leftType) and \(rightType); a date takes + or - a"
        + " number of seconds (7 days, 2 hours), and - another date", at: location)
  }
}
