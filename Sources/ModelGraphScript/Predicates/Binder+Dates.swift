import Foundation
import ModelGraphCore

extension Binder {
  /// `date ± seconds` and `date - date` (in seconds) over constants, folded to a constant so
  /// the engine compares a column with a value (`startDate > now() - 7 days` can use an index).
  ///
  /// - Throws: ``ScriptError`` at `location` for a key path operand or another operator.
  func dateArithmetic(
    _ left: Bound, _ leftType: StaticType, _ op: QueryArithmeticOperator, _ right: Bound,
    _ rightType: StaticType, at location: SourceLocation
  ) throws -> (Bound, StaticType) {
    guard case .constant(let a) = left, case .constant(let b) = right else {
      throw ScriptError(
        "date arithmetic needs constants (now() - 7 days, 2026-05-01 + 2 hours); compare the"
          + " attribute with the result", at: location)
    }
    if a.isNull || b.isNull { return (.constant(.null), .scalar(.date)) }
    switch (a, b) {
    case (.date(let date), _) where op == .add || op == .subtract:
      if let seconds = Arithmetic.double(b) {
        return (
          .constant(.date(date.addingTimeInterval(op == .add ? seconds : -seconds))),
          .scalar(.date)
        )
      }
      if case .date(let other) = b, op == .subtract {
        return (.constant(.double(date.timeIntervalSince(other))), .scalar(.double))
      }
    case (_, .date(let date)) where op == .add:
      if let seconds = Arithmetic.double(a) {
        return (.constant(.date(date.addingTimeInterval(seconds))), .scalar(.date))
      }
    default:
      break
    }
    throw ScriptError(
      "'\(op.rawValue)' cannot combine \(leftType) and \(rightType); a date takes + or - a"
        + " number of seconds (7 days, 2 hours), and - another date", at: location)
  }
}
