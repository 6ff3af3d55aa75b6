import Foundation

/// A storage type a compiled expression can compute: one case of ``CompiledValue`` each.
protocol QueryScalar: ColumnValue {
  /// The storage type's ``ValueType``.
  static var queryType: ValueType { get }
  /// The compiled value of this type.
  static func wrap(_ function: RowFunction<Self>) -> CompiledValue
  /// The typed function, when `value` has this type.
  static func unwrap(_ value: CompiledValue) -> RowFunction<Self>?
}

extension Bool: QueryScalar {
  static var queryType: ValueType { .bool }
  static func wrap(_ function: RowFunction<Bool>) -> CompiledValue { .bool(function) }
  static func unwrap(_ value: CompiledValue) -> RowFunction<Bool>? {
    if case .bool(let function) = value { function } else { nil }
  }
}

extension Int64: QueryScalar {
  static var queryType: ValueType { .int }
  static func wrap(_ function: RowFunction<Int64>) -> CompiledValue { .int(function) }
  static func unwrap(_ value: CompiledValue) -> RowFunction<Int64>? {
    if case .int(let function) = value { function } else { nil }
  }
}

extension UInt64: QueryScalar {
  static var queryType: ValueType { .uint }
  static func wrap(_ function: RowFunction<UInt64>) -> CompiledValue { .uint(function) }
  static func unwrap(_ value: CompiledValue) -> RowFunction<UInt64>? {
    if case .uint(let function) = value { function } else { nil }
  }
}

extension Double: QueryScalar {
  static var queryType: ValueType { .double }
  static func wrap(_ function: RowFunction<Double>) -> CompiledValue { .double(function) }
  static func unwrap(_ value: CompiledValue) -> RowFunction<Double>? {
    if case .double(let function) = value { function } else { nil }
  }
}

extension String: QueryScalar {
  static var queryType: ValueType { .string }
  static func wrap(_ function: RowFunction<String>) -> CompiledValue { .string(function) }
  static func unwrap(_ value: CompiledValue) -> RowFunction<String>? {
    if case .string(let function) = value { function } else { nil }
  }
}

extension Date: QueryScalar {
  static var queryType: ValueType { .date }
  static func wrap(_ function: RowFunction<Date>) -> CompiledValue { .date(function) }
  static func unwrap(_ value: CompiledValue) -> RowFunction<Date>? {
    if case .date(let function) = value { function } else { nil }
  }
}

extension UUID: QueryScalar {
  static var queryType: ValueType { .uuid }
  static func wrap(_ function: RowFunction<UUID>) -> CompiledValue { .uuid(function) }
  static func unwrap(_ value: CompiledValue) -> RowFunction<UUID>? {
    if case .uuid(let function) = value { function } else { nil }
  }
}

extension URL: QueryScalar {
  static var queryType: ValueType { .url }
  static func wrap(_ function: RowFunction<URL>) -> CompiledValue { .url(function) }
  static func unwrap(_ value: CompiledValue) -> RowFunction<URL>? {
    if case .url(let function) = value { function } else { nil }
  }
}

extension Data: QueryScalar {
  static var queryType: ValueType { .data }
  static func wrap(_ function: RowFunction<Data>) -> CompiledValue { .data(function) }
  static func unwrap(_ value: CompiledValue) -> RowFunction<Data>? {
    if case .data(let function) = value { function } else { nil }
  }
}

extension Decimal: QueryScalar {
  static var queryType: ValueType { .decimal }
  static func wrap(_ function: RowFunction<Decimal>) -> CompiledValue { .decimal(function) }
  static func unwrap(_ value: CompiledValue) -> RowFunction<Decimal>? {
    if case .decimal(let function) = value { function } else { nil }
  }
}
