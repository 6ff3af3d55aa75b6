import Foundation
import ModelGraphCore

extension PredicateExpressions.Conjunction: QueryTranslatable, _ConjunctionParts
where LHS: QueryTranslatable, RHS: QueryTranslatable {
  var parts: (Any, Any) { (lhs, rhs) }

  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    .and([try lhs.translate(translator), try rhs.translate(translator)])
  }
}

extension PredicateExpressions.Disjunction: QueryTranslatable
where LHS: QueryTranslatable, RHS: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    .or([try lhs.translate(translator), try rhs.translate(translator)])
  }
}

extension PredicateExpressions.Negation: QueryTranslatable
where Wrapped: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    .not(try wrapped.translate(translator))
  }
}

extension PredicateExpressions.Conditional: QueryTranslatable
where Test: QueryTranslatable, If: QueryTranslatable, Else: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    .conditional(
      try test.translate(translator), try trueBranch.translate(translator),
      try falseBranch.translate(translator))
  }
}

extension PredicateExpressions.Value: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    if let slot = translator.slot(Output.self) { return slot }
    return try ConstantConversion.converter(for: Output.self)(value, translator)
  }
}

extension PredicateExpressions.Variable: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    .variable(try translator.variable(key))
  }
}

extension PredicateExpressions.NilLiteral: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    .constant(.null)
  }
}
