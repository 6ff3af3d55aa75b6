import Foundation
import ModelGraphCore

extension PredicateExpressions.Equal: QueryTranslatable
where LHS: QueryTranslatable, RHS: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    if CanonicalEquality.isStoredAsJSON(LHS.Output.self) {
      return try translator.codableComparison(lhs, .equal, rhs, type: LHS.Output.self)
    }
    guard PredicateValueTypes.isEquatable(LHS.Output.self) else {
      throw Untranslatable("== on \(LHS.Output.self)")
    }
    return .comparison(try lhs.translate(translator), .equal, try rhs.translate(translator))
  }
}

extension PredicateExpressions.NotEqual: QueryTranslatable
where LHS: QueryTranslatable, RHS: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    if CanonicalEquality.isStoredAsJSON(LHS.Output.self) {
      return try translator.codableComparison(lhs, .notEqual, rhs, type: LHS.Output.self)
    }
    guard PredicateValueTypes.isEquatable(LHS.Output.self) else {
      throw Untranslatable("!= on \(LHS.Output.self)")
    }
    return .comparison(try lhs.translate(translator), .notEqual, try rhs.translate(translator))
  }
}

extension PredicateExpressions.Comparison: QueryTranslatable
where LHS: QueryTranslatable, RHS: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    guard PredicateValueTypes.isOrderable(LHS.Output.self) else {
      throw Untranslatable("ordering of \(LHS.Output.self) (not by its stored value)")
    }
    let engineOperator: QueryComparisonOperator =
      switch op {
      case .lessThan: .less
      case .lessThanOrEqual: .lessOrEqual
      case .greaterThan: .greater
      case .greaterThanOrEqual: .greaterOrEqual
      }
    return .comparison(try lhs.translate(translator), engineOperator, try rhs.translate(translator))
  }
}

extension PredicateExpressions.RangeExpressionContains: QueryTranslatable
where Element: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    guard PredicateValueTypes.isOrderable(Element.Output.self) else {
      throw Untranslatable("a range of \(Element.Output.self)")
    }
    let element = try self.element.translate(translator)
    let bounds: (lower: QueryExpression?, upper: QueryExpression?, isClosed: Bool)
    if let expression = range as? any _RangeExpressionBounds {
      bounds = try expression.bounds(translator)
    } else if let value = range as? any _ConstantRange, let range = value.constantRange {
      bounds = (
        try range.lower.map(translator.constant), try range.upper.map(translator.constant),
        range.isClosed
      )
    } else {
      throw Untranslatable("a range of type \(RangeExpression.Output.self)")
    }
    var conditions: [QueryExpression] = []
    if let lower = bounds.lower { conditions.append(.comparison(lower, .lessOrEqual, element)) }
    if let upper = bounds.upper {
      conditions.append(.comparison(element, bounds.isClosed ? .lessOrEqual : .less, upper))
    }
    return conditions.count == 1 ? conditions[0] : .and(conditions)
  }
}

/// `PredicateExpressions.Range` and `ClosedRange`: a range built in the predicate.
protocol _RangeExpressionBounds {
  func bounds(_ translator: PredicateTranslator) throws
    -> (lower: QueryExpression?, upper: QueryExpression?, isClosed: Bool)
}

extension PredicateExpressions.Range: _RangeExpressionBounds
where LHS: QueryTranslatable, RHS: QueryTranslatable {
  func bounds(_ translator: PredicateTranslator) throws
    -> (lower: QueryExpression?, upper: QueryExpression?, isClosed: Bool)
  {
    (try lower.translate(translator), try upper.translate(translator), false)
  }
}

extension PredicateExpressions.ClosedRange: _RangeExpressionBounds
where LHS: QueryTranslatable, RHS: QueryTranslatable {
  func bounds(_ translator: PredicateTranslator) throws
    -> (lower: QueryExpression?, upper: QueryExpression?, isClosed: Bool)
  {
    (try lower.translate(translator), try upper.translate(translator), true)
  }
}

/// A captured range value, seen without its bound type.
protocol _ConstantRange {
  var constantRange: (lower: Any?, upper: Any?, isClosed: Bool)? { get }
}

extension PredicateExpressions.Value: _ConstantRange {
  var constantRange: (lower: Any?, upper: Any?, isClosed: Bool)? {
    switch value {
    case let range as any _RangeValue: range.rangeBounds
    default: nil
    }
  }
}

/// The standard library's range types, seen without their bound type.
protocol _RangeValue {
  var rangeBounds: (lower: Any?, upper: Any?, isClosed: Bool) { get }
}

extension Range: _RangeValue {
  var rangeBounds: (lower: Any?, upper: Any?, isClosed: Bool) { (lowerBound, upperBound, false) }
}

extension ClosedRange: _RangeValue {
  var rangeBounds: (lower: Any?, upper: Any?, isClosed: Bool) { (lowerBound, upperBound, true) }
}

extension PartialRangeFrom: _RangeValue {
  var rangeBounds: (lower: Any?, upper: Any?, isClosed: Bool) { (lowerBound, nil, false) }
}

extension PartialRangeUpTo: _RangeValue {
  var rangeBounds: (lower: Any?, upper: Any?, isClosed: Bool) { (nil, upperBound, false) }
}

extension PartialRangeThrough: _RangeValue {
  var rangeBounds: (lower: Any?, upper: Any?, isClosed: Bool) { (nil, upperBound, true) }
}
