import Foundation

// The shapes of the nodes common in fetches. A node type without a conformance here (a cast,
// a type test, arithmetic, a range, a composed predicate) makes its predicate translated on
// every fetch. Each conformance walks its children in the order its `translate` does; none
// records its own type, which the root's type fixes (the walk records the root's).

extension PredicateExpressions.Value: PredicateShapeWalkable {
  func walkShape(_ walker: inout PredicateShapeWalker) {
    walker.value(value)
  }
}

extension PredicateExpressions.Variable: PredicateShapeWalkable {
  func walkShape(_ walker: inout PredicateShapeWalker) {
    walker.variable(key)
  }
}

extension PredicateExpressions.NilLiteral: PredicateShapeWalkable {
  func walkShape(_ walker: inout PredicateShapeWalker) {}
}

extension PredicateExpressions.KeyPath: PredicateShapeWalkable where Root: PredicateShapeWalkable {
  func walkShape(_ walker: inout PredicateShapeWalker) {
    root.walkShape(&walker)
    walker.keyPath(keyPath)
  }
}

extension PredicateExpressions.Conjunction: PredicateShapeWalkable
where LHS: PredicateShapeWalkable, RHS: PredicateShapeWalkable {
  func walkShape(_ walker: inout PredicateShapeWalker) {
    lhs.walkShape(&walker)
    rhs.walkShape(&walker)
  }
}

extension PredicateExpressions.Disjunction: PredicateShapeWalkable
where LHS: PredicateShapeWalkable, RHS: PredicateShapeWalkable {
  func walkShape(_ walker: inout PredicateShapeWalker) {
    lhs.walkShape(&walker)
    rhs.walkShape(&walker)
  }
}

extension PredicateExpressions.Negation: PredicateShapeWalkable
where Wrapped: PredicateShapeWalkable {
  func walkShape(_ walker: inout PredicateShapeWalker) {
    wrapped.walkShape(&walker)
  }
}

extension PredicateExpressions.Equal: PredicateShapeWalkable
where LHS: PredicateShapeWalkable, RHS: PredicateShapeWalkable {
  func walkShape(_ walker: inout PredicateShapeWalker) {
    lhs.walkShape(&walker)
    rhs.walkShape(&walker)
  }
}

extension PredicateExpressions.NotEqual: PredicateShapeWalkable
where LHS: PredicateShapeWalkable, RHS: PredicateShapeWalkable {
  func walkShape(_ walker: inout PredicateShapeWalker) {
    lhs.walkShape(&walker)
    rhs.walkShape(&walker)
  }
}

extension PredicateExpressions.Comparison: PredicateShapeWalkable
where LHS: PredicateShapeWalkable, RHS: PredicateShapeWalkable {
  func walkShape(_ walker: inout PredicateShapeWalker) {
    lhs.walkShape(&walker)
    rhs.walkShape(&walker)
    let code =
      switch op {
      case .lessThan: 0
      case .lessThanOrEqual: 1
      case .greaterThan: 2
      case .greaterThanOrEqual: 3
      }
    walker.op(code)
  }
}

extension PredicateExpressions.OptionalFlatMap: PredicateShapeWalkable
where LHS: PredicateShapeWalkable, RHS: PredicateShapeWalkable {
  func walkShape(_ walker: inout PredicateShapeWalker) {
    wrapped.walkShape(&walker)
    walker.variable(variable.key)
    transform.walkShape(&walker)
  }
}

extension PredicateExpressions.NilCoalesce: PredicateShapeWalkable
where LHS: PredicateShapeWalkable, RHS: PredicateShapeWalkable {
  func walkShape(_ walker: inout PredicateShapeWalker) {
    lhs.walkShape(&walker)
    rhs.walkShape(&walker)
  }
}

extension PredicateExpressions.SequenceContains: PredicateShapeWalkable
where LHS: PredicateShapeWalkable, RHS: PredicateShapeWalkable {
  func walkShape(_ walker: inout PredicateShapeWalker) {
    sequence.walkShape(&walker)
    element.walkShape(&walker)
  }
}

extension PredicateExpressions.SequenceContainsWhere: PredicateShapeWalkable
where LHS: PredicateShapeWalkable, RHS: PredicateShapeWalkable {
  func walkShape(_ walker: inout PredicateShapeWalker) {
    sequence.walkShape(&walker)
    walker.variable(variable.key)
    test.walkShape(&walker)
  }
}

extension PredicateExpressions.SequenceStartsWith: PredicateShapeWalkable
where Base: PredicateShapeWalkable, Prefix: PredicateShapeWalkable {
  func walkShape(_ walker: inout PredicateShapeWalker) {
    base.walkShape(&walker)
    prefix.walkShape(&walker)
  }
}

extension PredicateExpressions.CollectionContainsCollection: PredicateShapeWalkable
where Base: PredicateShapeWalkable, Other: PredicateShapeWalkable {
  func walkShape(_ walker: inout PredicateShapeWalker) {
    base.walkShape(&walker)
    other.walkShape(&walker)
  }
}

extension StringPredicateExpressions.LocalizedStandardContains: PredicateShapeWalkable
where Root: PredicateShapeWalkable, Other: PredicateShapeWalkable {
  func walkShape(_ walker: inout PredicateShapeWalker) {
    root.walkShape(&walker)
    other.walkShape(&walker)
  }
}

extension StringPredicateExpressions.CaseInsensitiveCompare: PredicateShapeWalkable
where Root: PredicateShapeWalkable, Other: PredicateShapeWalkable {
  func walkShape(_ walker: inout PredicateShapeWalker) {
    root.walkShape(&walker)
    other.walkShape(&walker)
  }
}
