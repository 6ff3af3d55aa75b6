import ModelGraphCore

extension StringPredicateExpressions.LocalizedStandardContains: QueryTranslatable
where Root: QueryTranslatable, Other: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    try stringTest(
      translator, Root.Output.self, Other.Output.self, root, .localizedStandardContains, other)
  }
}

extension StringPredicateExpressions.CaseInsensitiveCompare: QueryTranslatable
where Root: QueryTranslatable, Other: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    guard Root.Output.self == String.self, Other.Output.self == String.self else {
      throw Untranslatable("caseInsensitiveCompare on \(Root.Output.self)")
    }
    return .caseInsensitiveCompare(try root.translate(translator), try other.translate(translator))
  }
}

private func stringTest<Root: QueryTranslatable, Other: QueryTranslatable>(
  _ translator: PredicateTranslator, _ rootType: Any.Type, _ otherType: Any.Type, _ root: Root,
  _ op: QueryStringOperator, _ other: Other
) throws -> QueryExpression {
  guard rootType == String.self, otherType == String.self else {
    throw Untranslatable("\(op.rawValue) on \(rootType)")
  }
  return .string(try root.translate(translator), op, try other.translate(translator))
}
