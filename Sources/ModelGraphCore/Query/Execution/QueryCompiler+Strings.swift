extension QueryCompiler {
  /// A string test; `nil` on either side is false.
  func stringTest(_ lhs: CompiledValue, _ op: QueryStringOperator, _ rhs: CompiledValue) throws
    -> CompiledCondition
  {
    if case .null = lhs { return CompiledCondition(constant: false) }
    if case .null = rhs { return CompiledCondition(constant: false) }
    guard case .string(let subject) = lhs, case .string(let other) = rhs else {
      throw QueryError(
        .typeMismatch, "\(op.rawValue) needs two strings, not \(lhs.typeName) and \(rhs.typeName)")
    }
    if let constant = other.constant {
      guard let constant else { return CompiledCondition(constant: false) }
      let pattern = StringPattern(constant)
      if let fixed = subject.constant {
        return CompiledCondition(constant: fixed.map { pattern.matches($0, op) } ?? false)
      }
      switch subject.column {
      case .plain(let column):
        return StringScan.make(column, pattern, op)
          ?? ColumnScan.make(column, PatternMatcher(pattern: pattern, op: op))
      case .optional(let column):
        return StringScan.make(column, pattern, op)
          ?? ColumnScan.make(column, OptionalPatternMatcher(pattern: pattern, op: op))
      case nil:
        let evaluate = subject.evaluate
        return CompiledCondition(test: { row in
          guard let string = evaluate(row) else { return false }
          return pattern.matches(string, op)
        })
      }
    }
    let left = subject.evaluate
    let right = other.evaluate
    return CompiledCondition(
      test: { row in
        guard let string = left(row), let needle = right(row) else { return false }
        return StringPattern(needle).matches(string, op)
      }, cost: 16)
  }

  /// `caseInsensitiveCompare` as an integer: -1, 0 or 1.
  func caseInsensitiveCompare(_ lhs: CompiledValue, _ rhs: CompiledValue) throws -> CompiledValue {
    guard case .string(let subject) = lhs, case .string(let other) = rhs else {
      throw QueryError(.typeMismatch, "caseInsensitiveCompare needs two strings")
    }
    let left = subject.evaluate
    let right = other.evaluate
    return .int(
      RowFunction { row in
        guard let string = left(row), let other = right(row) else { return nil }
        return Int64(StringMatching.caseInsensitiveCompare(string, other))
      })
  }
}

private struct PatternMatcher: ValueMatcher {
  let pattern: StringPattern
  let op: QueryStringOperator
  @inline(__always) func matches(_ value: String) -> Bool { pattern.matches(value, op) }
}

private struct OptionalPatternMatcher: ValueMatcher {
  let pattern: StringPattern
  let op: QueryStringOperator
  @inline(__always) func matches(_ value: String?) -> Bool {
    guard let value else { return false }
    return pattern.matches(value, op)
  }
}
