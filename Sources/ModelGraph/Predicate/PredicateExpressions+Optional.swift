import Foundation
import ModelGraphCore

extension PredicateExpressions.OptionalFlatMap: QueryTranslatable
where LHS: QueryTranslatable, RHS: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    let base = try wrapped.translate(translator)
    let variable = translator.bind(self.variable.key)
    return .flatMap(base, variable: variable, try transform.translate(translator))
  }
}

extension PredicateExpressions.NilCoalesce: QueryTranslatable
where LHS: QueryTranslatable, RHS: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    .coalesce(try lhs.translate(translator), try rhs.translate(translator))
  }
}

extension PredicateExpressions.ConditionalCast: QueryTranslatable
where Input: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    .cast(try input.translate(translator), try translator.entityName(of: Desired.self))
  }
}

extension PredicateExpressions.TypeCheck: QueryTranslatable
where Input: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    .typeTest(
      try input.translate(translator), try translator.entityName(of: Desired.self), isExact: false)
  }
}
