import Foundation
import ModelGraphCore

extension PredicateExpressions.SequenceContains: QueryTranslatable
where LHS: QueryTranslatable, RHS: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    if CanonicalEquality.isStoredAsJSON(RHS.Output.self) {
      return try translator.codableContains(sequence, element, type: RHS.Output.self)
    }
    guard PredicateValueTypes.isEquatable(RHS.Output.self) else {
      throw Untranslatable("contains on a sequence of \(RHS.Output.self)")
    }
    return .contains(try sequence.translate(translator), try element.translate(translator))
  }
}

extension PredicateExpressions.SequenceContainsWhere: QueryTranslatable
where LHS: QueryTranslatable, RHS: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    let collection = try sequence.translate(translator)
    let variable = translator.bind(self.variable.key)
    return .any(collection, variable: variable, try test.translate(translator))
  }
}

extension PredicateExpressions.SequenceAllSatisfy: QueryTranslatable
where LHS: QueryTranslatable, RHS: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    let collection = try sequence.translate(translator)
    let variable = translator.bind(self.variable.key)
    return .all(collection, variable: variable, try test.translate(translator))
  }
}

extension PredicateExpressions.SequenceStartsWith: QueryTranslatable
where Base: QueryTranslatable, Prefix: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    guard Base.Output.self == String.self, Prefix.Output.self == String.self else {
      throw Untranslatable("starts(with:) on \(Base.Output.self)")
    }
    return .string(try base.translate(translator), .hasPrefix, try prefix.translate(translator))
  }
}

extension PredicateExpressions.CollectionContainsCollection: QueryTranslatable
where Base: QueryTranslatable, Other: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    guard Base.Output.self == String.self, Other.Output.self == String.self else {
      throw Untranslatable("contains on \(Base.Output.self)")
    }
    return .string(try base.translate(translator), .contains, try other.translate(translator))
  }
}
