import ModelGraphCore

extension Expression: CustomStringConvertible {
  /// The expression in the script's syntax, fully parenthesized where operators nest.
  public var description: String { render(nested: false) }

  private func render(nested: Bool) -> String {
    let text: String
    switch kind {
    case .literal(let value):
      switch value {
      case .date(let date): return DateLiteral.format(date)
      case .null: return "nil"
      default: return value.description
      }
    case .list(let elements):
      return "{" + elements.map { $0.render(nested: false) }.joined(separator: ", ") + "}"
    case .object(let fields):
      return "{"
        + fields.map { "\($0.name): \($0.value.render(nested: false))" }
        .joined(separator: ", ") + "}"
    case .this: return "self"
    case .variable(let name): return "$\(name)"
    case .member(let base, let name):
      if case .this = base.kind { return name }
      return "\(base.render(nested: true)).\(name)"
    case .count(let base): return "\(base.render(nested: true)).@count"
    case .cast(let base, let name): return "(\(base.render(nested: false)) AS \(name))"
    case .subquery(let collection, let variable, let condition):
      return "SUBQUERY(\(collection), $\(variable), \(condition))"
    case .query(let entity, let condition):
      return "(\(entity)\(condition.map { " where \($0)" } ?? ""))"
    case .arithmetic(let lhs, let op, let rhs):
      text = "\(lhs.render(nested: true)) \(op.rawValue) \(rhs.render(nested: true))"
    case .negate(let operand): return "-\(operand.render(nested: true))"
    case .compare(let comparison):
      var options = ""
      if comparison.caseInsensitive { options += "c" }
      if comparison.diacriticInsensitive { options += "d" }
      let op = comparison.op.rawValue + (options.isEmpty ? "" : "[\(options)]")
      let quantifier = comparison.quantifier.map { "\($0.rawValue) " } ?? ""
      text =
        "\(quantifier)\(comparison.lhs.render(nested: true)) \(op) \(comparison.rhs.render(nested: true))"
    case .and(let operands):
      text = operands.map { $0.render(nested: true) }.joined(separator: " AND ")
    case .or(let operands):
      text = operands.map { $0.render(nested: true) }.joined(separator: " OR ")
    case .not(let operand): return "NOT \(operand.render(nested: true))"
    case .typeTest(let base, let name, let isExact):
      text = "\(base.render(nested: true)) IS \(isExact ? "ONLY " : "")\(name)"
    }
    return nested ? "(\(text))" : text
  }
}
