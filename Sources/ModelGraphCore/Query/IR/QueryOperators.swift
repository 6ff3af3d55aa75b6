/// How ``QueryExpression/comparison(_:_:_:)`` compares its operands.
public enum QueryComparisonOperator: String, Sendable, Hashable, CaseIterable {
  /// `==`
  case equal = "=="
  /// `!=`
  case notEqual = "!="
  /// `<`
  case less = "<"
  /// `<=`
  case lessOrEqual = "<="
  /// `>`
  case greater = ">"
  /// `>=`
  case greaterOrEqual = ">="

  /// The operator with its operands swapped: `a < b` is `b > a`.
  public var swapped: QueryComparisonOperator {
    switch self {
    case .equal, .notEqual: self
    case .less: .greater
    case .lessOrEqual: .greaterOrEqual
    case .greater: .less
    case .greaterOrEqual: .lessOrEqual
    }
  }

  /// Whether the operator orders values (not only tests equality).
  public var isOrdering: Bool { self != .equal && self != .notEqual }
}

/// The operation of ``QueryExpression/arithmetic(_:_:_:)``.
public enum QueryArithmeticOperator: String, Sendable, Hashable, CaseIterable {
  /// `+`
  case add = "+"
  /// `-`
  case subtract = "-"
  /// `*`
  case multiply = "*"
  /// `/` (integer division truncates)
  case divide = "/"
  /// `%` (integers only)
  case remainder = "%"
}

/// A Swift integer type narrower than 64 bits, whose arithmetic ``QueryExpression/narrow(_:_:)``
/// computes. Values of the signed types are stored as `Int64`s, of the unsigned ones as
/// `UInt64`s.
public enum QueryIntegerWidth: String, Sendable, Hashable, CaseIterable {
  /// `Int8`
  case int8 = "Int8"
  /// `Int16`
  case int16 = "Int16"
  /// `Int32`
  case int32 = "Int32"
  /// `UInt8`
  case uint8 = "UInt8"
  /// `UInt16`
  case uint16 = "UInt16"
  /// `UInt32`
  case uint32 = "UInt32"

  /// Whether the type is signed.
  public var isSigned: Bool { self == .int8 || self == .int16 || self == .int32 }

  /// The values of the type.
  public var range: ClosedRange<Int64> {
    switch self {
    case .int8: Int64(Int8.min)...Int64(Int8.max)
    case .int16: Int64(Int16.min)...Int64(Int16.max)
    case .int32: Int64(Int32.min)...Int64(Int32.max)
    case .uint8: 0...Int64(UInt8.max)
    case .uint16: 0...Int64(UInt16.max)
    case .uint32: 0...Int64(UInt32.max)
    }
  }
}

/// The test of ``QueryExpression/string(_:_:_:)``; each has the semantics of the Swift method
/// it is named after.
public enum QueryStringOperator: String, Sendable, Hashable, CaseIterable {
  /// `Collection.contains(_:)` on characters (canonical equivalence, case-sensitive).
  case contains
  /// `Sequence.starts(with:)` on characters.
  case hasPrefix
  /// `String.hasSuffix(_:)`.
  case hasSuffix
  /// Foundation's `localizedStandardContains(_:)`: ignores case and diacritics.
  case localizedStandardContains
}
