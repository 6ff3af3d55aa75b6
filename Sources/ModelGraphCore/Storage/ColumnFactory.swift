import Foundation

extension ValueType {
  /// The Swift type the engine stores values of this type as.
  public var storageType: any ColumnValue.Type {
    switch self {
    case .bool: Bool.self
    case .int: Int64.self
    case .uint: UInt64.self
    case .double: Double.self
    case .string: String.self
    case .date: Date.self
    case .uuid: UUID.self
    case .url: URL.self
    case .data, .composite: Data.self
    case .decimal: Decimal.self
    case .array(let element): element.storageType.arrayType
    }
  }

  /// The storage type, made optional when `isOptional`.
  public func storageType(isOptional: Bool) -> any ColumnValue.Type {
    isOptional ? storageType.optionalType : storageType
  }
}

extension ColumnValue {
  /// `[Self]`.
  static var arrayType: any ColumnValue.Type { [Self].self }
  /// `Self?`.
  static var optionalType: any ColumnValue.Type { Self?.self }
  /// An empty column of `Self`.
  static func makeColumn() -> AnyColumn { Column<Self>() }
}

/// Makes an empty column holding values of `type`.
func makeColumn(of type: any ColumnValue.Type) -> AnyColumn { type.makeColumn() }
