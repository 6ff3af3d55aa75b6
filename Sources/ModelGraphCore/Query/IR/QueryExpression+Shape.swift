import Foundation

extension QueryExpression {
  /// The expression without its captured values: each constant becomes a placeholder of its
  /// type (`nil` and Booleans stay, since planning folds them), and each object a placeholder.
  ///
  /// Two expressions with the same shape plan alike: they prune the same classes and offer the
  /// same conjuncts to the same indexes, so a plan made for one is reused for the other with
  /// its own values (``QueryPlanCache``).
  var shape: QueryExpression {
    switch self {
    case .constant(let value): return .constant(value.placeholder)
    case .object: return .object(nil)
    case .variable, .opaque: return self
    case .attribute(let base, let name): return .attribute(base.shape, name)
    case .relationship(let base, let name): return .relationship(base.shape, name)
    case .cast(let base, let name): return .cast(base.shape, name)
    case .typeTest(let base, let name, let isExact):
      return .typeTest(base.shape, name, isExact: isExact)
    case .and(let operands): return .and(operands.map(\.shape))
    case .or(let operands): return .or(operands.map(\.shape))
    case .not(let operand): return .not(operand.shape)
    case .comparison(let lhs, let op, let rhs): return .comparison(lhs.shape, op, rhs.shape)
    case .arithmetic(let lhs, let op, let rhs): return .arithmetic(lhs.shape, op, rhs.shape)
    case .negative(let operand): return .negative(operand.shape)
    case .narrow(let operand, let width): return .narrow(operand.shape, width)
    case .string(let lhs, let op, let rhs): return .string(lhs.shape, op, rhs.shape)
    case .caseInsensitiveCompare(let lhs, let rhs):
      return .caseInsensitiveCompare(lhs.shape, rhs.shape)
    case .coalesce(let lhs, let rhs): return .coalesce(lhs.shape, rhs.shape)
    case .conditional(let test, let then, let otherwise):
      return .conditional(test.shape, then.shape, otherwise.shape)
    case .flatMap(let base, let variable, let body):
      return .flatMap(base.shape, variable: variable, body.shape)
    case .count(let operand): return .count(operand.shape)
    case .contains(let collection, let element): return .contains(collection.shape, element.shape)
    case .any(let collection, let variable, let body):
      return .any(collection.shape, variable: variable, body.shape)
    case .all(let collection, let variable, let body):
      return .all(collection.shape, variable: variable, body.shape)
    }
  }
}

extension ModelValue {
  /// A value of the same type that stands for any value of it in a ``QueryExpression/shape``;
  /// `nil` and Booleans stand for themselves.
  var placeholder: ModelValue {
    switch self {
    case .null, .bool: self
    case .int: .int(0)
    case .uint: .uint(0)
    case .double: .double(0)
    case .string: .string("")
    case .date: .date(Date(timeIntervalSinceReferenceDate: 0))
    case .uuid: .uuid(Self.uuidPlaceholder)
    case .url: .url(Self.urlPlaceholder)
    case .data: .data(Data())
    case .decimal: .decimal(0)
    case .array: .array([])
    }
  }

  private static let uuidPlaceholder = UUID(
    uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
  private static let urlPlaceholder = URL(fileURLWithPath: "/")
}
