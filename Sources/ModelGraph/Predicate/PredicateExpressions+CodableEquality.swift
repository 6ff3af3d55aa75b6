import Foundation
import ModelGraphCore

/// `==`, `!=` and a captured list's `contains` on an attribute stored as JSON (a `Codable`
/// type without a ``PersistentValue`` conformance), evaluated by the engine as a comparison of
/// canonical bytes where ``CanonicalEquality`` proves that is Swift's `==`.
extension PredicateTranslator {
  /// The comparison `lhs op rhs` of values of `type`, stored as JSON.
  func codableComparison(
    _ lhs: Any, _ op: QueryComparisonOperator, _ rhs: Any, type: Any.Type
  ) throws -> QueryExpression {
    // Against `nil`, the comparison is of the attribute's absence, which is Swift's for any
    // type; otherwise of the bytes, which needs the proof.
    if !(Self.isNil(lhs) || Self.isNil(rhs)) {
      try checkCanonical(type, operation: op == .equal ? "==" : "!=")
    }
    return .comparison(
      try codableOperand(lhs, type: type), op, try codableOperand(rhs, type: type))
  }

  /// `sequence.contains(element)`, where `sequence` is a captured list of values of `type`.
  func codableContains(_ sequence: Any, _ element: Any, type: Any.Type) throws -> QueryExpression {
    try checkCanonical(type, operation: "contains")
    guard let list = sequence as? any _PredicateConstant,
      let values = list.constantValue as? any Sequence
    else {
      throw Untranslatable(
        "contains on a sequence of \(type) that is not a captured list (the engine stores "
          + "such a list as one JSON value)")
    }
    let operand = try codableOperand(element, type: type)
    let constants = try anyElements(values).map { try codableConstant($0, type: type) }
    // The engine's lists hold no nil: a nil in the list is a test of the attribute's absence.
    let present = constants.filter { $0 != .null }
    var tests: [QueryExpression] = []
    if !present.isEmpty { tests.append(.contains(.constant(.array(present)), operand)) }
    if present.count < constants.count {
      tests.append(.comparison(operand, .equal, .constant(.null)))
    }
    guard !tests.isEmpty else { throw Untranslatable("contains on an empty list of \(type)") }
    return tests.count == 1 ? tests[0] : .or(tests)
  }

  private static func isNil(_ operand: Any) -> Bool {
    if operand is any _PredicateNilLiteral { return true }
    guard let constant = operand as? any _PredicateConstant,
      let optional = constant.constantValue as? any _OptionalValue
    else { return false }
    return optional.wrappedValue == nil
  }

  private func checkCanonical(_ type: Any.Type, operation: String) throws {
    let wrapped = PredicateValueTypes.unwrapped(type)
    guard CanonicalEquality.isProvable(wrapped) else {
      throw Untranslatable(
        "\(operation) on \(wrapped), whose == the engine cannot prove equal to comparing its "
          + "stored JSON")
    }
  }

  /// An operand: a captured value as its canonical JSON, or an attribute read.
  private func codableOperand(_ operand: Any, type: Any.Type) throws -> QueryExpression {
    if let constant = operand as? any _PredicateConstant {
      return .constant(try codableConstant(constant.constantValue, type: type))
    }
    let expression = try translate(operand)
    guard Self.readsStoredValue(expression) else {
      throw Untranslatable("a \(type) that is neither captured nor read from an attribute")
    }
    return expression
  }

  /// Whether `expression` yields a stored JSON value or `nil`, never a value built from lists.
  private static func readsStoredValue(_ expression: QueryExpression) -> Bool {
    switch expression {
    case .attribute, .constant(.null): true
    case .flatMap(_, _, let body): readsStoredValue(body)
    default: false
    }
  }

  /// `value`, of `type` (the attribute's declared type), as the engine stores it: `nil` as no
  /// value, anything else as its canonical JSON.
  private func codableConstant(_ value: Any, type: Any.Type) throws -> ModelValue {
    var value = value
    if type is any _OptionalType.Type {
      // The attribute's own optional is its absence; what it wraps is encoded as is.
      guard let wrapped = (value as? any _OptionalValue)?.wrappedValue else { return .null }
      value = wrapped
    }
    guard let encodable = value as? any Encodable else {
      throw Untranslatable("a captured \(Swift.type(of: value)) that is not Encodable")
    }
    do {
      return .data(try encodeCanonically(encodable))
    } catch {
      throw Untranslatable("a captured \(Swift.type(of: value)) that does not encode (\(error))")
    }
  }
}

private func anyElements<S: Sequence>(_ sequence: S) -> [Any] {
  sequence.map { $0 as Any }
}

/// `PredicateExpressions.NilLiteral`, seen without its type.
protocol _PredicateNilLiteral {}

extension PredicateExpressions.NilLiteral: _PredicateNilLiteral {}

/// `PredicateExpressions.Value`, seen without its type.
protocol _PredicateConstant {
  var constantValue: Any { get }
}

extension PredicateExpressions.Value: _PredicateConstant {
  var constantValue: Any { value }
}
