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
