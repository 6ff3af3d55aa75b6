import Foundation

/// A `#Predicate`'s expression tree without its captured values, and those values in the
/// order the translator meets them.
///
/// Two predicates with equal shapes translate alike but for their captured values: the shape
/// holds every node's type (which fixes its children's types and the captured values' types),
/// every key path, operator and variable binding. The context keeps the translation of each
/// shape it met with a slot for each captured value (``PredicateShapeCache``), so a fetch of a
/// known shape converts its values and skips the translation.
struct PredicateShape: Hashable {
  /// What identifies the tree, in a depth-first walk.
  enum Token: Hashable {
    /// A node of this type (generic arguments included).
    case node(ObjectIdentifier)
    /// A key path a node reads.
    case keyPath(AnyKeyPath)
    /// An operator of a node (`<`, `<=`, …).
    case op(Int)
    /// A variable: its position among the variables met so far (the predicate's input is 0).
    case variable(Int)
  }

  var tokens: [Token] = []
}

/// Walks a predicate's tree, gathering its ``PredicateShape`` and captured values.
struct PredicateShapeWalker {
  var shape = PredicateShape()
  /// The captured values, in walk order, with the type their `Value` node declares.
  var values: [Any] = []
  var valueTypes: [Any.Type] = []
  private var variables: [PredicateExpressions.VariableID]

  /// A walker whose variable 0 is `input`.
  init(input: PredicateExpressions.VariableID) {
    variables = [input]
    shape.tokens.reserveCapacity(16)
  }

  /// The shape and values of `predicate`, or `nil` when a node has no shape (the predicate
  /// is then translated on every fetch).
  static func walk<T>(_ predicate: Predicate<T>) -> PredicateShapeWalker? {
    let expression = predicate.expression
    guard let node = ShapeKind.of(type(of: expression)) else { return nil }
    var walker = PredicateShapeWalker(input: predicate.variable.key)
    walk(node, expression, &walker)
    return walker
  }

  private static func walk<Node: PredicateShapeWalkable>(
    _: Node.Type, _ expression: Any, _ walker: inout PredicateShapeWalker
  ) {
    (expression as! Node).walkShape(&walker)
  }

  /// Records a node of `type`.
  mutating func node(_ type: Any.Type) {
    shape.tokens.append(.node(ObjectIdentifier(type)))
  }

  /// Records a use or a binding of `key`.
  mutating func variable(_ key: PredicateExpressions.VariableID) {
    if let index = variables.firstIndex(of: key) {
      shape.tokens.append(.variable(index))
    } else {
      shape.tokens.append(.variable(variables.count))
      variables.append(key)
    }
  }

  /// Records a captured value.
  mutating func value(_ value: Any, of type: Any.Type) {
    values.append(value)
    valueTypes.append(type)
  }
}

/// A `PredicateExpression` node whose shape the walker records: every node type the engine
/// translates without reading its captured values in a special way.
///
/// Each node records its own type, then its children in the order its translation visits
/// them, then anything else its translation reads (an operator, a key path, a bound variable).
protocol PredicateShapeWalkable {
  func walkShape(_ walker: inout PredicateShapeWalker)
}

/// Whether a predicate's root type has a shape, found by a dynamic cast once per type.
private struct ShapeKind: @unchecked Sendable {
  // @unchecked Sendable: metatypes are immutable.
  let walkable: (any PredicateShapeWalkable.Type)?

  private static let cache = ThreadCache<ObjectIdentifier, ShapeKind>()

  static func of(_ type: Any.Type) -> (any PredicateShapeWalkable.Type)? {
    cache.value(for: ObjectIdentifier(type)) {
      ShapeKind(walkable: type as? any PredicateShapeWalkable.Type)
    }.walkable
  }
}
