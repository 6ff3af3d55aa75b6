extension QueryCompiler {
  /// ``QueryExpression/narrow(_:_:)``: `operand`, an arithmetic or a negation, computed on the
  /// Swift integer type `width`.
  ///
  /// The operands are read at 64 bits and narrowed (a value out of the type's range, which a
  /// value of that type cannot be, is an overflow too); the operation is then Swift's own on
  /// that type, so it faults exactly where Swift would stop the process (`Int8.min % -1`
  /// included) and otherwise gives Swift's result.
  func narrow(_ operand: QueryExpression, _ width: QueryIntegerWidth) throws -> CompiledValue {
    switch operand {
    case .arithmetic(let lhs, let op, let rhs):
      let (left, right) = CompiledValue.unify(try value(lhs), try value(rhs))
      switch (left, right) {
      case (.int(let a), .int(let b)) where width.isSigned:
        return .int(signed(a, op, b, width))
      case (.uint(let a), .uint(let b)) where !width.isSigned:
        return .uint(unsigned(a, op, b, width))
      default:
        throw QueryError(
          .typeMismatch,
          "cannot compute \(left.typeName) \(op.rawValue) \(right.typeName) as \(width.rawValue)")
      }
    case .negative(let inner):
      guard width.isSigned, case .int(let function) = try value(inner) else {
        throw QueryError(.typeMismatch, "cannot negate a value as \(width.rawValue)")
      }
      return .int(signed(RowFunction { _ in 0 }, .subtract, function, width))
    default:
      throw QueryError(
        .typeMismatch, "\(width.rawValue)(…) holds no arithmetic: \(operand)")
    }
  }

  private func signed(
    _ lhs: RowFunction<Int64>, _ op: QueryArithmeticOperator, _ rhs: RowFunction<Int64>,
    _ width: QueryIntegerWidth
  ) -> RowFunction<Int64> {
    switch width {
    case .int8: narrowed(lhs, op, rhs, as: Int8.self)
    case .int16: narrowed(lhs, op, rhs, as: Int16.self)
    default: narrowed(lhs, op, rhs, as: Int32.self)
    }
  }

  private func unsigned(
    _ lhs: RowFunction<UInt64>, _ op: QueryArithmeticOperator, _ rhs: RowFunction<UInt64>,
    _ width: QueryIntegerWidth
  ) -> RowFunction<UInt64> {
    switch width {
    case .uint8: narrowed(lhs, op, rhs, as: UInt8.self)
    case .uint16: narrowed(lhs, op, rhs, as: UInt16.self)
    default: narrowed(lhs, op, rhs, as: UInt32.self)
    }
  }

  /// `lhs op rhs` computed on `Narrow`, stored back at 64 bits; a result that overflows
  /// `Narrow`, and a division or remainder by zero, is recorded in the fault slot and `nil`.
  private func narrowed<Wide: FixedWidthInteger & QueryScalar, Narrow: FixedWidthInteger>(
    _ lhs: RowFunction<Wide>, _ op: QueryArithmeticOperator, _ rhs: RowFunction<Wide>,
    as _: Narrow.Type
  ) -> RowFunction<Wide> {
    let left = lhs.evaluate
    let right = rhs.evaluate
    let faults = faultSlot()
    let operation: (Narrow, Narrow) -> (partialValue: Narrow, overflow: Bool) =
      Self.reportingOverflow(op)
    let divides = op == .divide || op == .remainder
    return RowFunction { row in
      guard let a = left(row), let b = right(row) else { return nil }
      guard let x = Narrow(exactly: a), let y = Narrow(exactly: b) else {
        faults.record(.arithmeticOverflow, op)
        return nil
      }
      let (result, overflow) = operation(x, y)
      guard !overflow else {
        faults.record(divides && y == 0 ? .divisionByZero : .arithmeticOverflow, op)
        return nil
      }
      return Wide(result)
    }
  }

  /// Swift's `op` on `T`, reporting overflow (and division by zero) instead of trapping.
  static func reportingOverflow<T: FixedWidthInteger>(_ op: QueryArithmeticOperator)
    -> (T, T) -> (partialValue: T, overflow: Bool)
  {
    switch op {
    case .add: { $0.addingReportingOverflow($1) }
    case .subtract: { $0.subtractingReportingOverflow($1) }
    case .multiply: { $0.multipliedReportingOverflow(by: $1) }
    case .divide: { $0.dividedReportingOverflow(by: $1) }
    case .remainder: { $0.remainderReportingOverflow(dividingBy: $1) }
    }
  }
}
