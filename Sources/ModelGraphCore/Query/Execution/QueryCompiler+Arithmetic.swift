import Foundation

extension QueryCompiler {
  /// `lhs <op> rhs` on two numbers of one type.
  ///
  /// Integer results that overflow, integer division or remainder by zero, and `Decimal`
  /// results out of `Decimal`'s range or divided by zero, where Swift would stop the process,
  /// are recorded in the compilation's ``faultSlot()`` (the plan's run throws them) and are
  /// `nil` meanwhile.
  func arithmetic(_ lhs: CompiledValue, _ op: QueryArithmeticOperator, _ rhs: CompiledValue)
    throws -> CompiledValue
  {
    let (left, right) = CompiledValue.unify(lhs, rhs)
    switch (left, right) {
    case (.int(let a), .int(let b)): return .int(integer(a, op, b))
    case (.uint(let a), .uint(let b)): return .uint(integer(a, op, b))
    case (.double(let a), .double(let b)):
      guard op != .remainder else { break }
      return .double(floating(a, op, b))
    case (.decimal(let a), .decimal(let b)):
      guard op != .remainder else { break }
      return .decimal(decimal(a, op, b))
    default: break
    }
    throw QueryError(
      .typeMismatch, "cannot compute \(left.typeName) \(op.rawValue) \(right.typeName)")
  }

  /// `-operand`.
  func negative(_ operand: CompiledValue) throws -> CompiledValue {
    switch operand {
    case .int(let function):
      let evaluate = function.evaluate
      let faults = faultSlot()
      return .int(
        RowFunction { row in
          guard let value = evaluate(row) else { return nil }
          let (result, overflow) = Int64(0).subtractingReportingOverflow(value)
          guard !overflow else {
            faults.record(.arithmeticOverflow, .subtract)
            return nil
          }
          return result
        })
    case .double(let function):
      let evaluate = function.evaluate
      return .double(RowFunction { evaluate($0).map { -$0 } })
    case .decimal(let function):
      let evaluate = function.evaluate
      return .decimal(RowFunction { evaluate($0).map { -$0 } })
    default:
      throw QueryError(.typeMismatch, "cannot negate a \(operand.typeName)")
    }
  }

  /// Integer `lhs op rhs`; a result that overflows, and a division or remainder by zero, is
  /// recorded in the fault slot and `nil`.
  private func integer<T: FixedWidthInteger & QueryScalar>(
    _ lhs: RowFunction<T>, _ op: QueryArithmeticOperator, _ rhs: RowFunction<T>
  ) -> RowFunction<T> {
    let left = lhs.evaluate
    let right = rhs.evaluate
    let faults = faultSlot()
    let operation: (T, T) -> (partialValue: T, overflow: Bool) = Self.reportingOverflow(op)
    let divides = op == .divide || op == .remainder
    return RowFunction { row in
      guard let a = left(row), let b = right(row) else { return nil }
      let (result, overflow) = operation(a, b)
      guard !overflow else {
        faults.record(divides && b == 0 ? .divisionByZero : .arithmeticOverflow, op)
        return nil
      }
      return result
    }
  }

  private func floating(
    _ lhs: RowFunction<Double>, _ op: QueryArithmeticOperator, _ rhs: RowFunction<Double>
  ) -> RowFunction<Double> {
    let left = lhs.evaluate
    let right = rhs.evaluate
    let operation: (Double, Double) -> Double =
      switch op {
      case .add: (+)
      case .subtract: (-)
      case .multiply: (*)
      case .divide, .remainder: (/)
      }
    return RowFunction { row in
      guard let a = left(row), let b = right(row) else { return nil }
      return operation(a, b)
    }
  }

  /// `Decimal` `lhs op rhs`; a result out of range (checked conservatively by
  /// ``DecimalArithmetic``) or a division by zero is recorded in the fault slot and `nil`; a
  /// NaN operand gives NaN.
  private func decimal(
    _ lhs: RowFunction<Decimal>, _ op: QueryArithmeticOperator, _ rhs: RowFunction<Decimal>
  ) -> RowFunction<Decimal> {
    let left = lhs.evaluate
    let right = rhs.evaluate
    let faults = faultSlot()
    return RowFunction { row in
      guard let a = left(row), let b = right(row) else { return nil }
      if let result = DecimalArithmetic.result(a, op, b) { return result }
      // NaN in, NaN out, as Foundation computes it (without stopping); it then compares as
      // Foundation's NaN does (before every number).
      guard !a.isNaN, !b.isNaN else { return .nan }
      faults.record(
        op == .divide && b.isZero ? .divisionByZero : .arithmeticOverflow, op, isDecimal: true)
      return nil
    }
  }
}
