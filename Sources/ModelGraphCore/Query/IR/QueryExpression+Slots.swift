extension QueryExpression {
  private static let slotPrefix = "\u{0}slot "

  /// A numbered place for a request's value in a condition kept for reuse: an
  /// ``opaque(_:)`` node with a reserved text, which no front end produces otherwise. It is
  /// never planned or run; ``fillingSlots(_:)`` replaces it, and a bound plan reads the value
  /// of its number directly (``QueryPlanCache``).
  package static func slot(_ index: Int) -> QueryExpression {
    .opaque(slotPrefix + String(index))
  }

  /// The number of the slot this node is, if it is one.
  package var slotIndex: Int? {
    guard case .opaque(let text) = self, text.hasPrefix(Self.slotPrefix) else { return nil }
    return Int(text.dropFirst(Self.slotPrefix.count))
  }

  /// Whether a slot occurs in the expression.
  var hasSlots: Bool { containsNode { $0.slotIndex != nil } }

  /// The expression with each slot replaced by the value of its number (a slot past the end
  /// of `values` is kept).
  ///
  /// - Complexity: O(size of the expression).
  package func fillingSlots(_ values: [QueryExpression]) -> QueryExpression {
    func fill(_ expression: QueryExpression) -> QueryExpression { expression.fillingSlots(values) }
    switch self {
    case .opaque:
      guard let index = slotIndex, values.indices.contains(index) else { return self }
      return values[index]
    case .constant, .object, .variable: return self
    case .attribute(let base, let name): return .attribute(fill(base), name)
    case .relationship(let base, let name): return .relationship(fill(base), name)
    case .cast(let base, let name): return .cast(fill(base), name)
    case .typeTest(let base, let name, let isExact):
      return .typeTest(fill(base), name, isExact: isExact)
    case .and(let operands): return .and(operands.map(fill))
    case .or(let operands): return .or(operands.map(fill))
    case .not(let operand): return .not(fill(operand))
    case .comparison(let lhs, let op, let rhs): return .comparison(fill(lhs), op, fill(rhs))
    case .arithmetic(let lhs, let op, let rhs): return .arithmetic(fill(lhs), op, fill(rhs))
    case .negative(let operand): return .negative(fill(operand))
    case .narrow(let operand, let width): return .narrow(fill(operand), width)
    case .string(let lhs, let op, let rhs): return .string(fill(lhs), op, fill(rhs))
    case .caseInsensitiveCompare(let lhs, let rhs):
      return .caseInsensitiveCompare(fill(lhs), fill(rhs))
    case .coalesce(let lhs, let rhs): return .coalesce(fill(lhs), fill(rhs))
    case .conditional(let test, let then, let otherwise):
      return .conditional(fill(test), fill(then), fill(otherwise))
    case .flatMap(let base, let variable, let body):
      return .flatMap(fill(base), variable: variable, fill(body))
    case .count(let operand): return .count(fill(operand))
    case .contains(let collection, let element): return .contains(fill(collection), fill(element))
    case .any(let collection, let variable, let body):
      return .any(fill(collection), variable: variable, fill(body))
    case .all(let collection, let variable, let body):
      return .all(fill(collection), variable: variable, fill(body))
    }
  }
}
