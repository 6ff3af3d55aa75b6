extension QueryCompiler {
  /// `lhs ?? rhs`.
  func coalesce(_ lhs: CompiledValue, _ rhs: CompiledValue) throws -> CompiledValue {
    if case .null = lhs { return rhs }
    if case .null = rhs { return lhs }
    if case .object(let a) = lhs, case .object(let b) = rhs {
      guard let first = a.key else { return lhs }
      let second = keyFunction(b)
      return .object(CompiledObject(key: { first($0) ?? second($0) }, entity: a.entity))
    }
    let (left, right) = CompiledValue.unify(lhs, rhs)
    guard let result = try CompiledValue.visitPair(left, right, Coalesce()) else {
      throw QueryError(.typeMismatch, "cannot coalesce \(lhs.typeName) with \(rhs.typeName)")
    }
    return result
  }

  /// `test ? then : otherwise`.
  func conditional(_ test: CompiledCondition, _ then: CompiledValue, _ otherwise: CompiledValue)
    throws -> CompiledValue
  {
    if let constant = test.constant { return constant ? then : otherwise }
    let (left, right) = CompiledValue.unify(then, otherwise)
    if case .object(let a) = left, case .object(let b) = right {
      let first = keyFunction(a)
      let second = keyFunction(b)
      let check = test.test
      return .object(
        CompiledObject(key: { check($0) ? first($0) : second($0) }, entity: a.entity))
    }
    let gate = test.test
    if case .null = left { return right.gated(by: { !gate($0) }) }
    if case .null = right { return left.gated(by: gate) }
    guard let result = try CompiledValue.visitPair(left, right, Choose(test: gate)) else {
      throw QueryError(.typeMismatch, "the branches have types \(left.typeName), \(right.typeName)")
    }
    return result
  }

  /// `base.flatMap { $variable in body }`: `nil` when `base` is, else `body` with the variable
  /// bound to `base`'s value.
  func flatMap(_ base: CompiledValue, _ variable: Int, _ body: QueryExpression) throws
    -> CompiledValue
  {
    switch base {
    case .null:
      return .null
    case .object(let object):
      guard let key = object.key else {
        return try with(variable, boundTo: base) { try value(body) }
      }
      let slot = VariableSlot(ObjectKey.placeholder)
      let bound = CompiledValue.object(
        CompiledObject(key: { _ in slot.value }, entity: object.entity))
      let result = try with(variable, boundTo: bound) { try value(body) }
      return result.gated(by: { row in
        guard let found = key(row) else { return false }
        slot.value = found
        return true
      })
    default:
      guard let binding = try base.visitAny(BindScalar()) else {
        throw QueryError(.unsupported, "flatMap over a \(base.typeName)")
      }
      let result = try with(variable, boundTo: binding.bound) { try value(body) }
      return result.gated(by: binding.gate)
    }
  }
}

private struct Coalesce: ScalarPairVisitor {
  func visit<T: QueryScalar>(_ lhs: RowFunction<T>, _ rhs: RowFunction<T>) -> CompiledValue {
    if case .plain = lhs.column { return T.wrap(lhs) }
    let left = lhs.evaluate
    let right = rhs.evaluate
    return T.wrap(RowFunction { left($0) ?? right($0) })
  }
}

private struct Choose: ScalarPairVisitor {
  let test: (Int) -> Bool
  func visit<T: QueryScalar>(_ lhs: RowFunction<T>, _ rhs: RowFunction<T>) -> CompiledValue {
    let test = test
    let left = lhs.evaluate
    let right = rhs.evaluate
    return T.wrap(RowFunction { test($0) ? left($0) : right($0) })
  }
}

/// A scalar variable: the value its body reads and the gate that binds it.
private struct BindScalar: ScalarPairVisitor {
  func visit<T: QueryScalar>(_ value: RowFunction<T>, _: RowFunction<T>)
    -> (bound: CompiledValue, gate: (Int) -> Bool)
  {
    let slot = VariableSlot(T.placeholder)
    let evaluate = value.evaluate
    return (
      T.wrap(RowFunction { _ in slot.value }),
      { row in
        guard let found = evaluate(row) else { return false }
        slot.value = found
        return true
      }
    )
  }
}
