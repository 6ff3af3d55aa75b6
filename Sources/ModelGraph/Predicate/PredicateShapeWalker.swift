import Foundation
import ModelGraphCore

/// Walks a predicate's tree, gathering its ``PredicateShape`` and captured values, or checking
/// it against a known shape and converting its captured values on the way.
///
/// Recording (``walk(_:)``) lists every token and value. Matching
/// (``match(_:shape:converters:translator:)``) appends nothing: each token is compared with
/// the known shape's token at the same place, and each captured value is converted at once
/// with the known shape's converter, so a fetch of a known shape allocates no token list and
/// boxes no value.
struct PredicateShapeWalker {
  var shape = PredicateShape()
  /// The captured values, in walk order, with the type their `Value` node declares (recording).
  var values: [Any] = []
  var valueTypes: [Any.Type] = []
  private let input: PredicateExpressions.VariableID
  /// The variables bound inside the tree, in the order met (the input is variable 0).
  private var bound: [PredicateExpressions.VariableID] = []

  /// The shape matched against, when matching; tokens are then compared, not recorded.
  private let expected: [PredicateShape.Token]?
  private var position = 0
  /// Whether every token so far equals the expected shape's (matching) and every value
  /// converted.
  private(set) var matches = true
  /// The conversion of each captured value, when matching a shape kept for reuse.
  private let converters: [ConstantConversion.Entry]?
  /// The context whose translator converts values that read one, and the translator of the
  /// others (matching).
  private let context: ModelContext?
  private let plain: PredicateTranslator?
  private var contextual: PredicateTranslator?
  /// The captured values converted (matching).
  private(set) var converted: [QueryExpression] = []

  private init(
    input: PredicateExpressions.VariableID, expected: [PredicateShape.Token]?,
    converters: [ConstantConversion.Entry]?, context: ModelContext? = nil,
    plain: PredicateTranslator? = nil
  ) {
    self.input = input
    self.expected = expected
    self.converters = converters
    self.context = context
    self.plain = plain
    if expected == nil { shape.tokens.reserveCapacity(16) }
    if let converters { converted.reserveCapacity(converters.count) }
  }

  /// The shape and values of `predicate`, or `nil` when a node has no shape (the predicate
  /// is then translated on every fetch).
  static func walk<T>(_ predicate: Predicate<T>) -> PredicateShapeWalker? {
    guard let node = ShapeKind.of(type(of: predicate.expression)) else { return nil }
    var walker = PredicateShapeWalker(input: predicate.variable.key, expected: nil, converters: nil)
    walker.node(node)
    walk(node, predicate.expression, &walker)
    return walker
  }

  /// Whether `predicate` has exactly `shape`, and its captured values converted with
  /// `converters` (`nil`: not converted) when it has and each converts.
  ///
  /// - Parameters:
  ///   - context: The context a converter that reads its translator gets one of.
  ///   - plain: The translator passed to the other converters (it holds no context).
  static func match<T>(
    _ predicate: Predicate<T>, shape: PredicateShape, converters: [ConstantConversion.Entry]?,
    context: ModelContext, plain: PredicateTranslator
  ) -> [QueryExpression]? {
    match(
      predicate.expression, input: predicate.variable.key, shape: shape, converters: converters,
      context: context, plain: plain)
  }

  /// ``match(_:shape:converters:context:plain:)`` of a predicate's tree `expression`, whose
  /// input variable is `input` (not generic over the predicate's input: a caller that is not
  /// specialized reads the two parts once).
  static func match(
    _ expression: any StandardPredicateExpression<Bool>, input: PredicateExpressions.VariableID,
    shape: PredicateShape, converters: [ConstantConversion.Entry]?, context: ModelContext,
    plain: PredicateTranslator
  ) -> [QueryExpression]? {
    guard let node = ShapeKind.of(type(of: expression)) else { return nil }
    return match(
      expression, as: node, input: input, shape: shape, converters: converters,
      context: context, plain: plain)
  }

  /// ``match(_:input:shape:converters:context:plain:)`` of a tree whose type is `node` (as
  /// ``ShapeKind/of(_:)`` found it for the tree's type).
  static func match(
    _ expression: any StandardPredicateExpression<Bool>, as node: any PredicateShapeWalkable.Type,
    input: PredicateExpressions.VariableID, shape: PredicateShape,
    converters: [ConstantConversion.Entry]?, context: ModelContext, plain: PredicateTranslator
  ) -> [QueryExpression]? {
    var walker = PredicateShapeWalker(
      input: input, expected: shape.tokens, converters: converters, context: context,
      plain: plain)
    walker.node(node)
    walk(node, expression, &walker)
    guard walker.matches, walker.position == shape.tokens.count,
      walker.converted.count == converters?.count ?? 0
    else { return nil }
    return walker.converted
  }

  private static func walk<Node: PredicateShapeWalkable>(
    _: Node.Type, _ expression: any StandardPredicateExpression<Bool>,
    _ walker: inout PredicateShapeWalker
  ) {
    // `ShapeKind.of` found `Node` as the expression's dynamic type: read it as one without
    // a dynamic cast.
    func visit<Expression: StandardPredicateExpression<Bool>>(_ expression: Expression) {
      precondition(Expression.self == Node.self)
      withUnsafePointer(to: expression) { pointer in
        UnsafeRawPointer(pointer).assumingMemoryBound(to: Node.self).pointee.walkShape(&walker)
      }
    }
    visit(expression)
  }

  /// Records (or checks) `token`.
  @inline(__always)
  private mutating func record(_ token: PredicateShape.Token) {
    guard let expected else {
      shape.tokens.append(token)
      return
    }
    guard matches, position < expected.count, expected[position] == token else {
      matches = false
      return
    }
    position += 1
  }

  /// Records the root node, of `type`.
  private mutating func node(_ type: Any.Type) { record(.node(ObjectIdentifier(type))) }

  /// Records a key path a node reads.
  mutating func keyPath(_ keyPath: AnyKeyPath) { record(.keyPath(keyPath)) }

  /// Records an operator of a node.
  mutating func op(_ code: Int) { record(.op(code)) }

  /// Records a use or a binding of `key`.
  mutating func variable(_ key: PredicateExpressions.VariableID) {
    if key == input {
      record(.variable(0))
    } else if let index = bound.firstIndex(of: key) {
      record(.variable(index + 1))
    } else {
      record(.variable(bound.count + 1))
      bound.append(key)
    }
  }

  /// Records a captured value (or converts it, when matching).
  mutating func value<Value>(_ value: Value) {
    guard expected != nil else {
      values.append(value)
      valueTypes.append(Value.self)
      return
    }
    guard let converters, matches else { return }
    guard converted.count < converters.count else {
      matches = false
      return
    }
    let converter = converters[converted.count]
    if converter.needsTranslator && contextual == nil {
      contextual = PredicateTranslator(context: context) { _ in
        throw Untranslatable("a class named in the predicate")
      }
    }
    guard
      let translator = converter.needsTranslator ? contextual : plain,
      let expression = try? converter.converted(value, translator)
    else {
      matches = false
      return
    }
    converted.append(expression)
  }

}
