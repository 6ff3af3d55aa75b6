import Foundation
import ModelGraphCore

extension PredicateExpressions.Arithmetic: QueryTranslatable
where LHS: QueryTranslatable, RHS: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    guard PredicateValueTypes.supportsArithmetic(LHS.Output.self) else {
      throw Untranslatable("arithmetic on \(LHS.Output.self)")
    }
    let engineOperator: QueryArithmeticOperator =
      switch op {
      case .add: .add
      case .subtract: .subtract
      case .multiply: .multiply
      }
    return .arithmetic(
      try lhs.translate(translator), engineOperator, try rhs.translate(translator))
  }
}

extension PredicateExpressions.IntDivision: QueryTranslatable
where LHS: QueryTranslatable, RHS: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    guard PredicateValueTypes.supportsArithmetic(LHS.Output.self) else {
      throw Untranslatable("division of \(LHS.Output.self)")
    }
    return .arithmetic(try lhs.translate(translator), .divide, try rhs.translate(translator))
  }
}

extension PredicateExpressions.IntRemainder: QueryTranslatable
where LHS: QueryTranslatable, RHS: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    guard PredicateValueTypes.supportsArithmetic(LHS.Output.self) else {
      throw Untranslatable("remainder of \(LHS.Output.self)")
    }
    return .arithmetic(try lhs.translate(translator), .remainder, try rhs.translate(translator))
  }
}

extension PredicateExpressions.FloatDivision: QueryTranslatable
where LHS: QueryTranslatable, RHS: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    guard PredicateValueTypes.supportsArithmetic(LHS.Output.self) else {
      throw Untranslatable("division of \(LHS.Output.self)")
    }
    return .arithmetic(try lhs.translate(translator), .divide, try rhs.translate(translator))
  }
}

extension PredicateExpressions.UnaryMinus: QueryTranslatable
where Wrapped: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    guard PredicateValueTypes.supportsArithmetic(Wrapped.Output.self) else {
      throw Untranslatable("negation of \(Wrapped.Output.self)")
    }
    return .negative(try wrapped.translate(translator))
  }
}
