import Foundation

// Arithmetic, written for `explain` and for the error that refuses arithmetic left to
// `Predicate.evaluate` (``TrappingArithmetic``).

extension PredicateExpressions.Arithmetic: PredicateTextWritable {
  func predicateText(_ text: PredicateText) -> String {
    "(\(text.write(lhs)) \(symbol) \(text.write(rhs)))"
  }

  /// The operator as Swift writes it.
  var symbol: String {
    switch op {
    case .add: "+"
    case .subtract: "-"
    case .multiply: "*"
    }
  }
}

extension PredicateExpressions.IntDivision: PredicateTextWritable {
  func predicateText(_ text: PredicateText) -> String {
    "(\(text.write(lhs)) / \(text.write(rhs)))"
  }
}

extension PredicateExpressions.IntRemainder: PredicateTextWritable {
  func predicateText(_ text: PredicateText) -> String {
    "(\(text.write(lhs)) % \(text.write(rhs)))"
  }
}

extension PredicateExpressions.FloatDivision: PredicateTextWritable {
  func predicateText(_ text: PredicateText) -> String {
    "(\(text.write(lhs)) / \(text.write(rhs)))"
  }
}

extension PredicateExpressions.UnaryMinus: PredicateTextWritable {
  func predicateText(_ text: PredicateText) -> String { "-\(text.write(wrapped))" }
}
