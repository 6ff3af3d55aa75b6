import Foundation

/// A `#Predicate`'s expression tree without its captured values, and those values in the
/// order the translator meets them.
///
/// Two predicates with equal shapes translate alike but for their captured values: the shape
/// holds the root node's type (which fixes every node's type, the tree's structure and the
/// captured values' types), then every key path, operator and variable binding. The context keeps the translation of each
/// shape it met with a slot for each captured value (``PredicateShapeCache``), so a fetch of a
/// known shape converts its values and skips the translation.
struct PredicateShape: Hashable {
  /// The identifier of the root node's type: it fixes every node's type in the tree, so
  /// shapes that share it differ only in key paths, operators and variable bindings.
  var root: ObjectIdentifier? {
    guard case .node(let root) = tokens.first else { return nil }
    return root
  }

  /// What identifies the tree, in a depth-first walk.
  enum Token: Hashable {
    /// The root node, of this type (generic arguments included).
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

/// A `PredicateExpression` node whose shape the walker records: every node type the engine
/// translates without reading its captured values in a special way.
///
/// Each node records its children in the order its translation visits them, then anything
/// else its translation reads (an operator, a key path, a bound variable). A node's type is
/// not recorded: a node has only generic children, so the root's type fixes the whole tree.
protocol PredicateShapeWalkable {
  func walkShape(_ walker: inout PredicateShapeWalker)
}

/// Whether a predicate's root type has a shape, found by a dynamic cast once per type.
struct ShapeKind: @unchecked Sendable {
  // @unchecked Sendable: metatypes are immutable.
  let walkable: (any PredicateShapeWalkable.Type)?

  private static let cache = ThreadCache<ObjectIdentifier, ShapeKind>()

  static func of(_ type: Any.Type) -> (any PredicateShapeWalkable.Type)? {
    cache.value(for: ObjectIdentifier(type)) {
      ShapeKind(walkable: type as? any PredicateShapeWalkable.Type)
    }.walkable
  }
}
