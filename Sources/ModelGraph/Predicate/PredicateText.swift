import Foundation

/// Writes a `#Predicate` sub-expression as Swift-like source (`$0.name == "Paris"`), for the
/// `fallback:` line of `explain`, which names the part Foundation evaluates.
///
/// Nodes are reached through a dynamic cast to ``PredicateTextWritable``, as the translator
/// reaches ``QueryTranslatable``; a node without a conformance is written as its type's name.
final class PredicateText {
  private var variables: [PredicateExpressions.VariableID: Int] = [:]

  /// A writer whose predicate input is `$0`.
  init(input: PredicateExpressions.VariableID) {
    variables[input] = 0
  }

  /// `expression` as text.
  func write(_ expression: Any) -> String {
    guard let writable = expression as? any PredicateTextWritable else {
      return "\(shortName(type(of: expression)))(…)"
    }
    return writable.predicateText(self)
  }

  /// `$n` for a variable, numbering closure variables in the order they are met.
  func variable(_ key: PredicateExpressions.VariableID) -> String {
    if let index = variables[key] { return "$\(index)" }
    let index = variables.count
    variables[key] = index
    return "$\(index)"
  }

  /// A captured value: strings quoted, model objects by identifier.
  func value(_ value: Any) -> String {
    if let optional = value as? any _OptionalValue {
      guard let wrapped = optional.wrappedValue else { return "nil" }
      return self.value(wrapped)
    }
    if let string = value as? String { return "\"\(string)\"" }
    if let model = value as? ModelObject { return "\(type(of: model))(\(model._key))" }
    return String(describing: value)
  }
}

/// A `PredicateExpressions` node that ``PredicateText`` can write.
protocol PredicateTextWritable {
  func predicateText(_ text: PredicateText) -> String
}

extension PredicateExpressions.Variable: PredicateTextWritable {
  func predicateText(_ text: PredicateText) -> String { text.variable(key) }
}

extension PredicateExpressions.Value: PredicateTextWritable {
  func predicateText(_ text: PredicateText) -> String { text.value(value) }
}

extension PredicateExpressions.NilLiteral: PredicateTextWritable {
  func predicateText(_: PredicateText) -> String { "nil" }
}

extension PredicateExpressions.KeyPath: PredicateTextWritable {
  func predicateText(_ text: PredicateText) -> String {
    let name = KeyPathResolution.name(keyPath)
    let prefix = "\\\(shortName(Root.Output.self))."
    let member = name.hasPrefix(prefix) ? String(name.dropFirst(prefix.count)) : name
    return "\(text.write(root)).\(member)"
  }
}

extension PredicateExpressions.Equal: PredicateTextWritable {
  func predicateText(_ text: PredicateText) -> String {
    "\(text.write(lhs)) == \(text.write(rhs))"
  }
}

extension PredicateExpressions.NotEqual: PredicateTextWritable {
  func predicateText(_ text: PredicateText) -> String {
    "\(text.write(lhs)) != \(text.write(rhs))"
  }
}

extension PredicateExpressions.Comparison: PredicateTextWritable {
  func predicateText(_ text: PredicateText) -> String {
    let symbol =
      switch op {
      case .lessThan: "<"
      case .lessThanOrEqual: "<="
      case .greaterThan: ">"
      case .greaterThanOrEqual: ">="
      }
    return "\(text.write(lhs)) \(symbol) \(text.write(rhs))"
  }
}

extension PredicateExpressions.Conjunction: PredicateTextWritable {
  func predicateText(_ text: PredicateText) -> String {
    "(\(text.write(lhs)) && \(text.write(rhs)))"
  }
}

extension PredicateExpressions.Disjunction: PredicateTextWritable {
  func predicateText(_ text: PredicateText) -> String {
    "(\(text.write(lhs)) || \(text.write(rhs)))"
  }
}

extension PredicateExpressions.Negation: PredicateTextWritable {
  func predicateText(_ text: PredicateText) -> String { "!\(text.write(wrapped))" }
}

extension PredicateExpressions.SequenceContains: PredicateTextWritable {
  func predicateText(_ text: PredicateText) -> String {
    "\(text.write(sequence)).contains(\(text.write(element)))"
  }
}

extension PredicateExpressions.SequenceContainsWhere: PredicateTextWritable {
  func predicateText(_ text: PredicateText) -> String {
    let variable = text.variable(self.variable.key)
    return "\(text.write(sequence)).contains { \(variable) in \(text.write(test)) }"
  }
}

extension PredicateExpressions.SequenceAllSatisfy: PredicateTextWritable {
  func predicateText(_ text: PredicateText) -> String {
    let variable = text.variable(self.variable.key)
    return "\(text.write(sequence)).allSatisfy { \(variable) in \(text.write(test)) }"
  }
}

extension PredicateExpressions.NilCoalesce: PredicateTextWritable {
  func predicateText(_ text: PredicateText) -> String {
    "(\(text.write(lhs)) ?? \(text.write(rhs)))"
  }
}

extension PredicateExpressions.OptionalFlatMap: PredicateTextWritable {
  func predicateText(_ text: PredicateText) -> String {
    let variable = text.variable(self.variable.key)
    return "\(text.write(wrapped)).flatMap { \(variable) in \(text.write(transform)) }"
  }
}

extension PredicateExpressions.TypeCheck: PredicateTextWritable {
  func predicateText(_ text: PredicateText) -> String {
    "\(text.write(input)) is \(shortName(Desired.self))"
  }
}

extension PredicateExpressions.ConditionalCast: PredicateTextWritable {
  func predicateText(_ text: PredicateText) -> String {
    "(\(text.write(input)) as? \(shortName(Desired.self)))"
  }
}
