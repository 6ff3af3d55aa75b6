import Foundation
import ModelGraphCore

extension PredicateExpressions.Arithmetic: QueryTranslatable
where LHS: QueryTranslatable, RHS: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    let engineOperator: QueryArithmeticOperator =
      switch op {
      case .add: .add
      case .subtract: .subtract
      case .multiply: .multiply
      }
    return try arithmetic(on: LHS.Output.self, "arithmetic") {
      .arithmetic(try lhs.translate(translator), engineOperator, try rhs.translate(translator))
    }
  }
}

extension PredicateExpressions.IntDivision: QueryTranslatable
where LHS: QueryTranslatable, RHS: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    try arithmetic(on: LHS.Output.self, "division") {
      .arithmetic(try lhs.translate(translator), .divide, try rhs.translate(translator))
    }
  }
}

extension PredicateExpressions.IntRemainder: QueryTranslatable
where LHS: QueryTranslatable, RHS: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    try arithmetic(on: LHS.Output.self, "remainder") {
      .arithmetic(try lhs.translate(translator), .remainder, try rhs.translate(translator))
    }
  }
}

extension PredicateExpressions.FloatDivision: QueryTranslatable
where LHS: QueryTranslatable, RHS: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    try arithmetic(on: LHS.Output.self, "division") {
      .arithmetic(try lhs.translate(translator), .divide, try rhs.translate(translator))
    }
  }
}

extension PredicateExpressions.UnaryMinus: QueryTranslatable
where Wrapped: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    try arithmetic(on: Wrapped.Output.self, "negation") {
      .negative(try wrapped.translate(translator))
    }
  }
}

/// The arithmetic `translate` gives (an ``QueryExpression/arithmetic(_:_:_:)`` or a
/// ``QueryExpression/negative(_:)``) on values of `type`: as it is for a type the engine
/// computes on at full width, computed as on `type` for a narrower integer type
/// (``QueryExpression/narrow(_:_:)``).
/// - Throws: ``Untranslatable`` for any other type (`Float`), before translating.
private func arithmetic(
  on type: Any.Type, _ kind: String, _ translate: () throws -> QueryExpression
) throws -> QueryExpression {
  if PredicateValueTypes.supportsArithmetic(type) { return try translate() }
  if let width = PredicateValueTypes.narrowWidth(type) { return .narrow(try translate(), width) }
  throw Untranslatable("\(kind) of \(type)")
}
