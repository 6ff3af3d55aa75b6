extension QueryCompiler {
  /// The compiled condition `expression` states.
  func condition(_ expression: QueryExpression) throws -> CompiledCondition {
    switch expression {
    case .constant(.bool(let value)): return CompiledCondition(constant: value)
    case .and(let operands):
      let parts = try operands.map(condition)
      // Once arithmetic can fault, in the order written: an operand that Swift's `&&` would
      // not reach (a guard before it is false) must not fault.
      return .all(parts, keepingOrder: faults != nil)
    case .or(let operands):
      let parts = try operands.map(condition)
      return .any(parts, keepingOrder: faults != nil)
    case .not(let operand):
      // Only a Bool attribute can be a column scan; compiling any other operand as a value
      // first would compile it twice per level (exponential in nested NOTs).
      if case .attribute = operand, case .bool(let function) = try value(operand),
        let column = function.column
      {
        return ColumnScan.equality(column, false, EqualKernel.self)
      }
      return try condition(operand).negated
    case .comparison(let lhs, let op, let rhs):
      return try comparison(value(lhs), op, value(rhs), expression)
    case .typeTest(let base, let name, let isExact):
      return try typeTest(object(base), entity(named: name), isExact: isExact)
    case .string(let lhs, let op, let rhs):
      return try stringTest(value(lhs), op, value(rhs))
    case .contains(let collection, let element):
      return try contains(value(collection), value(element))
    case .any(let collection, let variable, let body):
      return try quantified(value(collection), variable, body, isUniversal: false)
    case .all(let collection, let variable, let body):
      return try quantified(value(collection), variable, body, isUniversal: true)
    default:
      let compiled = try value(expression)
      guard case .bool(let function) = compiled else {
        throw QueryError(.typeMismatch, "\(expression) is a \(compiled.typeName), not a Bool")
      }
      if let constant = function.constant { return CompiledCondition(constant: constant ?? false) }
      if let column = function.column { return ColumnScan.equality(column, true, EqualKernel.self) }
      let evaluate = function.evaluate
      return CompiledCondition(test: { evaluate($0) ?? false })
    }
  }

  /// `lhs <op> rhs` with Swift's semantics for `nil` (equal only to `nil`, never ordered).
  func comparison(
    _ lhs: CompiledValue, _ op: QueryComparisonOperator, _ rhs: CompiledValue,
    _ source: QueryExpression
  ) throws -> CompiledCondition {
    switch (lhs, rhs) {
    case (.null, .null): return CompiledCondition(constant: op == .equal)
    case (.null, let other), (let other, .null):
      guard !op.isOrdering else { return CompiledCondition(constant: false) }
      let isNil = other.isNil
      if case .object(let object) = other, object.isRoot {
        return CompiledCondition(constant: op == .notEqual)
      }
      if let direct = try other.visitAny(NilColumnTest(op: op)) ?? nil { return direct }
      return op == .equal
        ? CompiledCondition(test: isNil) : CompiledCondition(test: { !isNil($0) })
    case (.object(let a), .object(let b)):
      guard !op.isOrdering else {
        throw QueryError(.typeMismatch, "objects have no order: \(source)")
      }
      let left = keyFunction(a)
      let right = keyFunction(b)
      return op == .equal
        ? CompiledCondition(test: { left($0) == right($0) })
        : CompiledCondition(test: { left($0) != right($0) })
    default:
      let (left, right) = CompiledValue.unify(lhs, rhs)
      let built =
        op.isOrdering
        ? try CompiledValue.visitComparablePair(left, right, OrderingBuilder(op: op))
        : try CompiledValue.visitPair(left, right, EqualityBuilder(op: op))
      guard let built else {
        throw QueryError(
          .typeMismatch,
          "cannot compare \(left.typeName) with \(right.typeName) by \(op.rawValue): \(source)")
      }
      return built
    }
  }

  /// `base is target` (or exactly `target`).
  func typeTest(_ base: CompiledObject, _ target: ResolvedEntity, isExact: Bool)
    -> CompiledCondition
  {
    guard let key = base.key else {
      return CompiledCondition(
        constant: isExact ? entity.index == target.index : entity.isKind(of: target))
    }
    let entities = catalog.entities
    return CompiledCondition(test: { row in
      guard let found = key(row) else { return false }
      let entity = entities[Int(found.entity)]
      return isExact ? entity.index == target.index : entity.isKind(of: target)
    })
  }
}

extension QueryCompiler {
  /// The key of `object` on a row; for the tested object, the key of the row.
  func keyFunction(_ object: CompiledObject) -> (Int) -> ObjectKey? {
    if let key = object.key { return key }
    let table = table
    let index = entity.index
    return { row in ObjectKey(entity: index, row: row, generation: table.generation(of: row)) }
  }
}

extension CompiledValue {
  /// Runs `visitor` on a scalar value of any storage type.
  func visitAny<V: ScalarPairVisitor>(_ visitor: V) throws -> V.Result? {
    try CompiledValue.visitPair(self, self, visitor)
  }
}

/// `column == nil` (or `!=`) on an optional column, vectorized.
private struct NilColumnTest: ScalarPairVisitor {
  let op: QueryComparisonOperator

  func visit<T: QueryScalar>(_ lhs: RowFunction<T>, _: RowFunction<T>) -> CompiledCondition? {
    guard case .optional = lhs.column, let column = lhs.column else { return nil }
    return op == .equal
      ? ColumnScan.equality(column, nil, EqualKernel.self)
      : ColumnScan.equality(column, nil, NotEqualKernel.self)
  }
}

/// `==` and `!=` on two values of one storage type, with `Optional`'s semantics.
private struct EqualityBuilder: ScalarPairVisitor {
  let op: QueryComparisonOperator

  func visit<T: QueryScalar>(_ lhs: RowFunction<T>, _ rhs: RowFunction<T>) -> CompiledCondition {
    let isEqual = op == .equal
    if let a = lhs.constant, let b = rhs.constant {
      return CompiledCondition(constant: (a == b) == isEqual)
    }
    if let column = lhs.column, let constant = rhs.constant {
      return isEqual
        ? ColumnScan.equality(column, constant, EqualKernel.self)
        : ColumnScan.equality(column, constant, NotEqualKernel.self)
    }
    if let column = rhs.column, let constant = lhs.constant {
      return isEqual
        ? ColumnScan.equality(column, constant, EqualKernel.self)
        : ColumnScan.equality(column, constant, NotEqualKernel.self)
    }
    let left = lhs.evaluate
    let right = rhs.evaluate
    return isEqual
      ? CompiledCondition(test: { left($0) == right($0) })
      : CompiledCondition(test: { left($0) != right($0) })
  }
}

/// `<`, `<=`, `>`, `>=` on two values of one ordered type; `nil` on either side is false.
private struct OrderingBuilder: ComparablePairVisitor {
  let op: QueryComparisonOperator

  func visit<T: QueryScalar & Comparable>(_ lhs: RowFunction<T>, _ rhs: RowFunction<T>)
    -> CompiledCondition
  {
    if let a = lhs.constant, let b = rhs.constant {
      guard let a, let b else { return CompiledCondition(constant: false) }
      return CompiledCondition(constant: Self.compare(a, op, b))
    }
    if let column = lhs.column, let constant = rhs.constant {
      guard let constant else { return CompiledCondition(constant: false) }
      return Self.scan(column, op, constant)
    }
    if let column = rhs.column, let constant = lhs.constant {
      guard let constant else { return CompiledCondition(constant: false) }
      return Self.scan(column, op.swapped, constant)
    }
    let left = lhs.evaluate
    let right = rhs.evaluate
    switch op {
    case .less:
      return CompiledCondition(test: { row in
        guard let a = left(row), let b = right(row) else { return false }
        return a < b
      })
    case .lessOrEqual:
      return CompiledCondition(test: { row in
        guard let a = left(row), let b = right(row) else { return false }
        return a <= b
      })
    case .greater:
      return CompiledCondition(test: { row in
        guard let a = left(row), let b = right(row) else { return false }
        return a > b
      })
    default:
      return CompiledCondition(test: { row in
        guard let a = left(row), let b = right(row) else { return false }
        return a >= b
      })
    }
  }

  static func compare<T: Comparable>(_ a: T, _ op: QueryComparisonOperator, _ b: T) -> Bool {
    switch op {
    case .equal: a == b
    case .notEqual: a != b
    case .less: a < b
    case .lessOrEqual: a <= b
    case .greater: a > b
    case .greaterOrEqual: a >= b
    }
  }

  static func scan<T: QueryScalar & Comparable>(
    _ column: DirectColumn<T>, _ op: QueryComparisonOperator, _ constant: T
  ) -> CompiledCondition {
    switch op {
    case .less: ColumnScan.ordering(column, constant, LessKernel.self)
    case .lessOrEqual: ColumnScan.ordering(column, constant, LessOrEqualKernel.self)
    case .greater: ColumnScan.ordering(column, constant, GreaterKernel.self)
    case .greaterOrEqual: ColumnScan.ordering(column, constant, GreaterOrEqualKernel.self)
    case .equal: ColumnScan.ordering(column, constant, EqualKernel.self)
    case .notEqual: ColumnScan.ordering(column, constant, NotEqualKernel.self)
    }
  }
}
