import Foundation

/// Generic work over one storage type, run by a `switch` so every call is specialized.
protocol ScalarTypeVisitor {
  associatedtype Result
  func visit<T: QueryScalar>(_ type: T.Type) throws -> Result
}

/// Generic work over two compiled values of one storage type.
protocol ScalarPairVisitor {
  associatedtype Result
  func visit<T: QueryScalar>(_ lhs: RowFunction<T>, _ rhs: RowFunction<T>) throws -> Result
}

/// Generic work over two compiled values of one ordered storage type.
protocol ComparablePairVisitor {
  associatedtype Result
  func visit<T: QueryScalar & Comparable>(_ lhs: RowFunction<T>, _ rhs: RowFunction<T>) throws
    -> Result
}

/// Generic work over one compiled value of an ordered storage type.
protocol ComparableValueVisitor {
  associatedtype Result
  func visit<T: QueryScalar & Comparable>(_ value: RowFunction<T>) throws -> Result
}

extension ValueType {
  /// Runs `visitor` with the storage type of a scalar type; `nil` for an array type.
  func visitScalar<V: ScalarTypeVisitor>(_ visitor: V) throws -> V.Result? {
    switch self {
    case .bool: try visitor.visit(Bool.self)
    case .int: try visitor.visit(Int64.self)
    case .uint: try visitor.visit(UInt64.self)
    case .double: try visitor.visit(Double.self)
    case .string: try visitor.visit(String.self)
    case .date: try visitor.visit(Date.self)
    case .uuid: try visitor.visit(UUID.self)
    case .url: try visitor.visit(URL.self)
    case .data, .composite: try visitor.visit(Data.self)
    case .decimal: try visitor.visit(Decimal.self)
    case .array: nil
    }
  }
}

extension CompiledValue {
  /// The value's storage type, for scalar values.
  var scalarType: ValueType? {
    switch self {
    case .bool: .bool
    case .int: .int
    case .uint: .uint
    case .double: .double
    case .string: .string
    case .date: .date
    case .uuid: .uuid
    case .url: .url
    case .data: .data
    case .decimal: .decimal
    case .array, .object, .objects, .null: nil
    }
  }

  /// The constant's value, boxed (once, at compile time), when this is a scalar constant.
  var constantValue: ModelValue? {
    switch self {
    case .bool(let f): f.constant.map { $0?.modelValue ?? .null }
    case .int(let f): f.constant.map { $0?.modelValue ?? .null }
    case .uint(let f): f.constant.map { $0?.modelValue ?? .null }
    case .double(let f): f.constant.map { $0?.modelValue ?? .null }
    case .string(let f): f.constant.map { $0?.modelValue ?? .null }
    case .date(let f): f.constant.map { $0?.modelValue ?? .null }
    case .uuid(let f): f.constant.map { $0?.modelValue ?? .null }
    case .url(let f): f.constant.map { $0?.modelValue ?? .null }
    case .data(let f): f.constant.map { $0?.modelValue ?? .null }
    case .decimal(let f): f.constant.map { $0?.modelValue ?? .null }
    case .null: .null
    case .array, .object, .objects: nil
    }
  }

  /// A constant of storage type `type`, or `nil` when `value` does not convert to it.
  static func constant(_ value: ModelValue, as type: ValueType) -> CompiledValue? {
    struct Make: ScalarTypeVisitor {
      let value: ModelValue
      func visit<T: QueryScalar>(_: T.Type) -> CompiledValue? {
        if value.isNull { return T.wrap(RowFunction(constant: nil)) }
        return T(modelValue: value).map { T.wrap(RowFunction(constant: $0)) }
      }
    }
    return (try? type.visitScalar(Make(value: value))) ?? nil
  }

  /// Runs `visitor` on two scalar values of one storage type; `nil` when their types differ.
  static func visitPair<V: ScalarPairVisitor>(
    _ lhs: CompiledValue, _ rhs: CompiledValue, _ visitor: V
  ) throws -> V.Result? {
    switch (lhs, rhs) {
    case (.bool(let a), .bool(let b)): try visitor.visit(a, b)
    case (.int(let a), .int(let b)): try visitor.visit(a, b)
    case (.uint(let a), .uint(let b)): try visitor.visit(a, b)
    case (.double(let a), .double(let b)): try visitor.visit(a, b)
    case (.string(let a), .string(let b)): try visitor.visit(a, b)
    case (.date(let a), .date(let b)): try visitor.visit(a, b)
    case (.uuid(let a), .uuid(let b)): try visitor.visit(a, b)
    case (.url(let a), .url(let b)): try visitor.visit(a, b)
    case (.data(let a), .data(let b)): try visitor.visit(a, b)
    case (.decimal(let a), .decimal(let b)): try visitor.visit(a, b)
    default: nil
    }
  }

  /// Runs `visitor` on two values of one ordered storage type; `nil` when their types differ
  /// or the type has no order.
  static func visitComparablePair<V: ComparablePairVisitor>(
    _ lhs: CompiledValue, _ rhs: CompiledValue, _ visitor: V
  ) throws -> V.Result? {
    switch (lhs, rhs) {
    case (.int(let a), .int(let b)): try visitor.visit(a, b)
    case (.uint(let a), .uint(let b)): try visitor.visit(a, b)
    case (.double(let a), .double(let b)): try visitor.visit(a, b)
    case (.string(let a), .string(let b)): try visitor.visit(a, b)
    case (.date(let a), .date(let b)): try visitor.visit(a, b)
    case (.uuid(let a), .uuid(let b)): try visitor.visit(a, b)
    case (.decimal(let a), .decimal(let b)): try visitor.visit(a, b)
    default: nil
    }
  }

  /// Runs `visitor` on a value of an ordered storage type; `nil` for any other value.
  func visitComparable<V: ComparableValueVisitor>(_ visitor: V) throws -> V.Result? {
    switch self {
    case .int(let f): try visitor.visit(f)
    case .uint(let f): try visitor.visit(f)
    case .double(let f): try visitor.visit(f)
    case .string(let f): try visitor.visit(f)
    case .date(let f): try visitor.visit(f)
    case .uuid(let f): try visitor.visit(f)
    case .decimal(let f): try visitor.visit(f)
    default: nil
    }
  }

  /// The two values with a constant converted to the other's storage type when they differ
  /// (`nil` meets any type; an integer constant meets a `Double` attribute, and so on).
  static func unify(_ lhs: CompiledValue, _ rhs: CompiledValue) -> (CompiledValue, CompiledValue) {
    guard lhs.scalarType != rhs.scalarType || lhs.scalarType == nil else { return (lhs, rhs) }
    if let type = rhs.scalarType, let constant = lhs.constantValue,
      let converted = CompiledValue.constant(constant, as: type)
    {
      return (converted, rhs)
    }
    if let type = lhs.scalarType, let constant = rhs.constantValue,
      let converted = CompiledValue.constant(constant, as: type)
    {
      return (lhs, converted)
    }
    return (lhs, rhs)
  }
}
