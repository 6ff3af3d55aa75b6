import ModelGraphCore

extension SQLQueryCompiler {
  /// ``QueryExpression/narrow(_:_:)`` on a signed type (stored as `bigint`): `operand`'s
  /// arithmetic computed at 64 bits, where it cannot overflow, then failing the statement with
  /// SQLSTATE 22003 where the result does not fit `width`, as Swift stops the process.
  func narrow(_ operand: QueryExpression, _ width: QueryIntegerWidth, _ variables: [Int: Term])
    throws -> Term
  {
    switch operand {
    case .arithmetic(let left, let op, let right):
      let (a, typeA) = try value(translate(left, variables))
      let (b, typeB) = try value(translate(right, variables))
      guard typeA == .int, typeB == .int else {
        throw Untranslatable(reason: "\(width.rawValue) arithmetic on other values")
      }
      return .value(Self.integerArithmetic(a, op, b, within: width.range), .int)
    case .negative(let inner):
      let (sql, type) = try value(translate(inner, variables))
      guard type == .int else {
        throw Untranslatable(reason: "a \(width.rawValue) negation of other values")
      }
      return .value(Self.integerArithmetic("0", .subtract, sql, within: width.range), .int)
    default:
      throw Untranslatable(reason: "\(width.rawValue)(…) without arithmetic")
    }
  }

  /// `a op b` on bigints that hold values of a narrower type, whose values are `range`: as
  /// ``integerArithmetic(_:_:_:)``, and a result out of `range` (the quotient, for a
  /// remainder: `Int8.min % -1` overflows in Swift) fails the statement with SQLSTATE 22003
  /// (`bigint out of range`, from a sum that overflows on purpose). The operands' steps
  /// cannot overflow 64 bits: they are at most 32 bits wide.
  static func integerArithmetic(
    _ a: String, _ op: QueryArithmeticOperator, _ b: String, within range: ClosedRange<Int64>
  ) -> String {
    let check =
      op == .remainder ? "mg_step.mg_a / mg_step.mg_b" : "mg_step.mg_a \(op.rawValue) mg_step.mg_b"
    let result = op == .remainder ? "mg_step.mg_a % mg_step.mg_b" : check
    // NULL when an operand is NULL; else fails on purpose (fenced, so never folded).
    let overflow = "(\(check)) * 0 + 9223372036854775807 + 1"
    return "(SELECT CASE WHEN \(check) BETWEEN \(range.lowerBound) AND \(range.upperBound) "
      + "THEN \(result) ELSE \(overflow) END "
      + "FROM (SELECT (\(a))::bigint, (\(b))::bigint OFFSET 0) mg_step(mg_a, mg_b))"
  }
}
