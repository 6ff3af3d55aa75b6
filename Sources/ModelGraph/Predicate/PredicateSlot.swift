import ModelGraphCore

/// A numbered place for a captured value in a translated predicate kept for reuse.
///
/// A slot is written as an ``QueryExpression/opaque(_:)`` node with a reserved text, which
/// the translator never produces otherwise; it is never planned or run, only filled.
enum PredicateSlot {
  private static let prefix = "\u{0}slot "

  /// The slot numbered `index`.
  static func expression(_ index: Int) -> QueryExpression {
    .opaque(prefix + String(index))
  }

  /// The number of the slot `text` names, if it names one.
  static func index(_ text: String) -> Int? {
    guard text.hasPrefix(prefix) else { return nil }
    return Int(text.dropFirst(prefix.count))
  }
}

extension QueryExpression {
  /// The expression with each slot replaced by the value of its number.
  ///
  /// - Complexity: O(size of the expression); nodes without a slot below them are kept.
  func fillingSlots(_ values: [QueryExpression]) -> QueryExpression {
    func fill(_ expression: QueryExpression) -> QueryExpression { expression.fillingSlots(values) }
    switch self {
    case .opaque(let text):
      guard let index = PredicateSlot.index(text), values.indices.contains(index) else {
        return self
      }
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
