import Foundation

extension QueryCompiler {
  /// `lhs <op> rhs` on two numbers of one type.
  ///
  /// Integer results that overflow, integer division or remainder by zero, and `Decimal`
  /// results out of `Decimal`'s range or divided by zero are `nil` (a comparison with them is
  /// false) where Swift would stop the process.
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
      return .int(
        RowFunction { row in
          guard let value = evaluate(row) else { return nil }
          let (result, overflow) = Int64(0).subtractingReportingOverflow(value)
          return overflow ? nil : result
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

  private func integer<T: FixedWidthInteger & QueryScalar>(
    _ lhs: RowFunction<T>, _ op: QueryArithmeticOperator, _ rhs: RowFunction<T>
  ) -> RowFunction<T> {
    let left = lhs.evaluate
    let right = rhs.evaluate
    let operation: (T, T) -> (partialValue: T, overflow: Bool) =
      switch op {
      case .add: { $0.addingReportingOverflow($1) }
      case .subtract: { $0.subtractingReportingOverflow($1) }
      case .multiply: { $0.multipliedReportingOverflow(by: $1) }
      case .divide: { $0.dividedReportingOverflow(by: $1) }
      case .remainder: { $0.remainderReportingOverflow(dividingBy: $1) }
      }
    return RowFunction { row in
      guard let a = left(row), let b = right(row) else { return nil }
      let (result, overflow) = operation(a, b)
      return overflow ? nil : result
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

  private func decimal(
    _ lhs: RowFunction<Decimal>, _ op: QueryArithmeticOperator, _ rhs: RowFunction<Decimal>
  ) -> RowFunction<Decimal> {
    let left = lhs.evaluate
    let right = rhs.evaluate
    return RowFunction { row in
      guard let a = left(row), let b = right(row) else { return nil }
      return DecimalArithmetic.result(a, op, b)
    }
  }
}
