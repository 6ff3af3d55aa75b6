extension QueryCompiler {
  /// The number of elements of an array, live objects of a to-many relationship, or characters
  /// of a string.
  func count(_ operand: CompiledValue) throws -> CompiledValue {
    switch operand {
    case .string(let function):
      let evaluate = function.evaluate
      return .int(RowFunction { evaluate($0).map { Int64($0.count) } })
    case .objects(let function, _):
      let evaluate = function.evaluate
      let tables = tables
      return .int(
        RowFunction { row in
          guard let keys = evaluate(row) else { return nil }
          var count: Int64 = 0
          for key in keys where tables[Int(key.entity)].contains(key) { count += 1 }
          return count
        })
    case .array(let array):
      return try array.elementType.visitScalar(ArrayCount(array: array)) ?? .null
    default:
      throw QueryError(.typeMismatch, "a \(operand.typeName) has no count")
    }
  }

  /// Whether `collection` contains `element`: a constant list (`IN`), an array attribute, or
  /// the objects of a to-many relationship.
  func contains(_ collection: CompiledValue, _ element: CompiledValue) throws -> CompiledCondition {
    switch (collection, element) {
    case (.objects(let function, _), _):
      let evaluate = function.evaluate
      let tables = tables
      guard case .object(let object) = element else {
        if case .null = element { return CompiledCondition(constant: false) }
        throw QueryError(
          .typeMismatch, "a collection of objects cannot contain a \(element.typeName)")
      }
      let key = keyFunction(object)
      return CompiledCondition(test: { row in
        guard let keys = evaluate(row), let wanted = key(row) else { return false }
        return keys.contains(wanted) && tables[Int(wanted.entity)].contains(wanted)
      })
    case (.array(let array), _):
      let element =
        element.scalarType == nil || element.scalarType == array.elementType
        ? element
        : element.constantValue.flatMap { CompiledValue.constant($0, as: array.elementType) }
          ?? element
      guard
        let built = try array.elementType.visitScalar(
          ArrayContains(array: array, element: element))
      else { throw QueryError(.unsupported, "nested arrays are not supported") }
      return built
    default:
      throw QueryError(.typeMismatch, "a \(collection.typeName) is not a collection")
    }
  }

  /// `collection.contains { body }` (or `allSatisfy` when `isUniversal`).
  func quantified(
    _ collection: CompiledValue, _ variable: Int, _ body: QueryExpression, isUniversal: Bool
  ) throws -> CompiledCondition {
    switch collection {
    case .objects(let function, let destination):
      let slot = VariableSlot(ObjectKey.placeholder)
      let bound = CompiledValue.object(
        CompiledObject(key: { _ in slot.value }, entity: destination))
      let test = try with(variable, boundTo: bound) { try condition(body) }.test
      let evaluate = function.evaluate
      let tables = tables
      return CompiledCondition(
        test: { row in
          guard let keys = evaluate(row) else { return isUniversal }
          for key in keys where tables[Int(key.entity)].contains(key) {
            slot.value = key
            if test(row) != isUniversal { return !isUniversal }
          }
          return isUniversal
        }, cost: 32)
    case .array(let array):
      let quantifier = ArrayQuantifier(
        array: array, compiler: self, variable: variable, body: body, isUniversal: isUniversal)
      guard let built = try array.elementType.visitScalar(quantifier) else {
        throw QueryError(.unsupported, "nested arrays are not supported")
      }
      return built
    case .null:
      return CompiledCondition(constant: isUniversal)
    default:
      throw QueryError(.typeMismatch, "a \(collection.typeName) is not a collection")
    }
  }
}

private struct ArrayCount: ScalarTypeVisitor {
  let array: CompiledArray
  func visit<T: QueryScalar>(_: T.Type) -> CompiledValue {
    let evaluate = (array.function as! RowFunction<[T]>).evaluate
    return .int(RowFunction { evaluate($0).map { Int64($0.count) } })
  }
}

/// Membership in an array; a constant list becomes a set, tested column by column when the
/// element is an attribute of the tested object.
private struct ArrayContains: ScalarTypeVisitor {
  let array: CompiledArray
  let element: CompiledValue

  func visit<T: QueryScalar>(_: T.Type) throws -> CompiledCondition { try build(T.self) }

  private func build<T: QueryScalar>(_: T.Type) throws -> CompiledCondition {
    let list = array.function as! RowFunction<[T]>
    let item: RowFunction<T>
    if case .null = element {
      item = RowFunction(constant: nil)
    } else {
      guard let typed = T.unwrap(element) else {
        throw QueryError(
          .typeMismatch, "a [\(array.elementType)] cannot contain a \(element.typeName)")
      }
      item = typed
    }
    if let constant = list.constant {
      let members = Set(constant ?? [])
      if let fixed = item.constant {
        return CompiledCondition(constant: fixed.map(members.contains) ?? false)
      }
      switch item.column {
      case .plain(let column): return ColumnScan.make(column, SetMatcher(members: members))
      case .optional(let column):
        return ColumnScan.make(column, OptionalSetMatcher(members: members))
      case nil:
        let evaluate = item.evaluate
        return CompiledCondition(test: { row in evaluate(row).map(members.contains) ?? false })
      }
    }
    let elements = list.evaluate
    let evaluate = item.evaluate
    return CompiledCondition(test: { row in
      guard let values = elements(row), let value = evaluate(row) else { return false }
      return values.contains(value)
    })
  }
}

private struct SetMatcher<T: ColumnValue>: ValueMatcher {
  let members: Set<T>
  @inline(__always) func matches(_ value: T) -> Bool { members.contains(value) }
}

private struct OptionalSetMatcher<T: ColumnValue>: ValueMatcher {
  let members: Set<T>
  @inline(__always) func matches(_ value: T?) -> Bool { value.map(members.contains) ?? false }
}

private struct ArrayQuantifier: ScalarTypeVisitor {
  let array: CompiledArray
  let compiler: QueryCompiler
  let variable: Int
  let body: QueryExpression
  let isUniversal: Bool

  func visit<T: QueryScalar>(_: T.Type) throws -> CompiledCondition {
    let slot = VariableSlot(T.placeholder)
    let bound = T.wrap(RowFunction { _ in slot.value })
    let test = try compiler.with(variable, boundTo: bound) { try compiler.condition(body) }.test
    let evaluate = (array.function as! RowFunction<[T]>).evaluate
    let isUniversal = isUniversal
    return CompiledCondition(
      test: { row in
        guard let values = evaluate(row) else { return isUniversal }
        for value in values {
          slot.value = value
          if test(row) != isUniversal { return !isUniversal }
        }
        return isUniversal
      }, cost: 32)
  }
}
