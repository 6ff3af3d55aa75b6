extension QueryExpression: CustomStringConvertible {
  /// The expression in Swift-like syntax, as `explain` and the runner print it.
  ///
  /// `$0` is the object tested and `$1`, `$2`, … the values bound by closures:
  /// `$0.startDate >= 2026-01-01T00:00:00Z && ($0 as? PersonalTrip).flatMap { $1.reason == 0 } ?? false`.
  public var description: String { render(topLevel: true) }

  private func render(topLevel: Bool = false) -> String {
    let text: String
    switch self {
    case .constant(let value): return value.description
    case .object(let key): return key.map { "object(\($0))" } ?? "object(unsaved)"
    case .variable(let index): return "$\(index)"
    case .attribute(let base, let name), .relationship(let base, let name):
      return "\(base.render()).\(name)"
    case .cast(let base, let entity): return "(\(base.render()) as? \(entity))"
    case .typeTest(let base, let entity, let isExact):
      text = isExact ? "type(of: \(base.render())) == \(entity)" : "\(base.render()) is \(entity)"
    case .and(let operands):
      if operands.isEmpty { return "true" }
      text = operands.map { $0.render() }.joined(separator: " && ")
    case .or(let operands):
      if operands.isEmpty { return "false" }
      text = operands.map { $0.render() }.joined(separator: " || ")
    case .not(let operand): return "!\(operand.render())"
    case .comparison(let lhs, let op, let rhs):
      text = "\(lhs.render()) \(op.rawValue) \(rhs.render())"
    case .arithmetic(let lhs, let op, let rhs):
      text = "\(lhs.render()) \(op.rawValue) \(rhs.render())"
    case .negative(let operand): return "-\(operand.render())"
    case .narrow(let operand, let width):
      return "\(width.rawValue)(\(operand.render(topLevel: true)))"
    case .string(let lhs, let op, let rhs):
      let method = op == .hasPrefix ? "starts(with: " : "\(op.rawValue)("
      return "\(lhs.render()).\(method)\(rhs.render(topLevel: true)))"
    case .caseInsensitiveCompare(let lhs, let rhs):
      return "\(lhs.render()).caseInsensitiveCompare(\(rhs.render(topLevel: true)))"
    case .coalesce(let lhs, let rhs): text = "\(lhs.render()) ?? \(rhs.render())"
    case .conditional(let test, let then, let otherwise):
      text = "\(test.render()) ? \(then.render()) : \(otherwise.render())"
    case .flatMap(let base, let variable, let body):
      return "\(base.render()).flatMap { $\(variable) in \(body.render(topLevel: true)) }"
    case .count(let base): return "\(base.render()).count"
    case .contains(let collection, let element):
      return "\(collection.render()).contains(\(element.render(topLevel: true)))"
    case .any(let collection, let variable, let body):
      return
        "\(collection.render()).contains { $\(variable) in \(body.render(topLevel: true)) }"
    case .all(let collection, let variable, let body):
      return
        "\(collection.render()).allSatisfy { $\(variable) in \(body.render(topLevel: true)) }"
    case .opaque(let text): return "⟨\(text)⟩"
    }
    return topLevel ? text : "(\(text))"
  }
}
