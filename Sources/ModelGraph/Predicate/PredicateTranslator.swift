import Foundation
import ModelGraphCore

/// Translates a Foundation `#Predicate` tree into the engine's ``QueryExpression``.
///
/// Each `PredicateExpressions` type the engine understands conforms to
/// ``QueryTranslatable``; the translator reaches them through a dynamic cast. A node it does not
/// understand (or whose types the engine would evaluate differently from Swift) throws
/// ``Untranslatable``; the fetch then leaves the conjunct that holds it to `Predicate.evaluate`.
final class PredicateTranslator {
  /// Registers a model class named in a type test or cast, so the planner knows its table.
  let register: (ModelObject.Type) throws -> Void
  /// The context whose objects may appear as constants (their keys are used).
  let context: ModelContext?
  private var variables: [PredicateExpressions.VariableID: Int] = [:]
  private var nextVariable = 1
  /// The untranslated conjuncts of the last ``translate(_:)-(Predicate<T>)`` that compute
  /// arithmetic `Predicate.evaluate` would stop the process on (``TrappingArithmetic``),
  /// each written out with the arithmetic and why it is not translated.
  private(set) var refusals: [String] = []
  /// When not `nil`, captured values translate to numbered slots (``PredicateSlot``) instead
  /// of constants, and this lists the type of each slot's value, in translation order.
  private(set) var slotTypes: [Any.Type]?

  init(
    context: ModelContext?, recordsSlots: Bool = false,
    register: @escaping (ModelObject.Type) throws -> Void
  ) {
    self.context = context
    self.register = register
    if recordsSlots { slotTypes = [] }
  }

  /// A slot for a captured value of `type`, when recording slots; else `nil`.
  func slot(_ type: Any.Type) -> QueryExpression? {
    guard slotTypes != nil else { return nil }
    defer { slotTypes!.append(type) }
    return PredicateSlot.expression(slotTypes!.count)
  }

  /// The translation of `predicate`, split into the conjuncts the engine evaluates and a
  /// description of those it cannot (left to `Predicate.evaluate`): each conjunct written out,
  /// then why (`$0.tags == ["a"], which the engine does not evaluate (== on Set<String>)`).
  /// Those that compute arithmetic that can stop the process are also in ``refusals``.
  func translate<T>(_ predicate: Predicate<T>) -> (QueryExpression?, untranslated: [String]) {
    variables[predicate.variable.key] = 0
    var translated: [QueryExpression] = []
    var untranslated: [String] = []
    refusals = []
    let text = PredicateText(input: predicate.variable.key)
    for conjunct in conjuncts(of: predicate.expression) {
      do {
        translated.append(try translate(conjunct))
      } catch {
        let written = text.write(conjunct)
        untranslated.append("\(written), which the engine does not evaluate (\(error))")
        if let arithmetic = TrappingArithmetic.first(in: conjunct) {
          refusals.append(
            "\(written) computes \(arithmetic) in a part the engine does not evaluate (\(error))")
        }
      }
    }
    let expression: QueryExpression? =
      translated.isEmpty ? nil : translated.count == 1 ? translated[0] : .and(translated)
    return (expression, untranslated)
  }

  /// The operands of a top-level `&&` chain (including a ``CompoundPredicate/and(_:)``).
  private func conjuncts(of expression: Any) -> [Any] {
    let kind = NodeKind.of(type(of: expression))
    if let conjunction = kind.conjunction {
      let (lhs, rhs) = parts(conjunction, expression)
      return conjuncts(of: lhs) + conjuncts(of: rhs)
    }
    if let list = kind.list, let parts = try? conjunctList(list, expression) {
      return parts.flatMap(conjuncts(of:))
    }
    return [expression]
  }

  /// The translation of a `PredicateExpression` node.
  func translate(_ expression: Any) throws -> QueryExpression {
    guard let node = NodeKind.of(type(of: expression)).translatable else {
      throw Untranslatable("\(shortName(type(of: expression))) is not supported by the engine")
    }
    return try translate(node, expression)
  }

  private func parts<Node: _ConjunctionParts>(_: Node.Type, _ expression: Any) -> (Any, Any) {
    (expression as! Node).parts
  }

  private func conjunctList<Node: _ConjunctionList>(_: Node.Type, _ expression: Any) throws
    -> [Any]?
  {
    try (expression as! Node).conjunctList(self)
  }

  private func translate<Node: QueryTranslatable>(_: Node.Type, _ expression: Any) throws
    -> QueryExpression
  {
    try (expression as! Node).translate(self)
  }

  /// The engine variable of a Foundation variable.
  func variable(_ key: PredicateExpressions.VariableID) throws -> Int {
    guard let index = variables[key] else { throw Untranslatable("an unbound variable") }
    return index
  }

  /// Binds a closure's Foundation variable to a new engine variable.
  func bind(_ key: PredicateExpressions.VariableID) -> Int {
    defer { nextVariable += 1 }
    variables[key] = nextVariable
    return nextVariable
  }

  /// Binds a Foundation variable to an existing engine variable (a composed predicate's input).
  func alias(_ key: PredicateExpressions.VariableID, to index: Int) {
    variables[key] = index
  }

  /// The entity name of a model class named in a cast or type test, registering it.
  func entityName(of type: Any.Type) throws -> String {
    guard let model = type as? ModelObject.Type else {
      throw Untranslatable("a cast to \(type), which is not a model class")
    }
    try register(model)
    return ModelClassInfo.info(for: model).entityName
  }
}

/// What a `PredicateExpression` type is to the translator, found by dynamic casts once per
/// type (the casts check conditional conformances, which costs more than a translation).
private struct NodeKind: @unchecked Sendable {
  // @unchecked Sendable: metatypes are immutable.
  let conjunction: (any _ConjunctionParts.Type)?
  let list: (any _ConjunctionList.Type)?
  let translatable: (any QueryTranslatable.Type)?

  private static let cache = ThreadCache<ObjectIdentifier, NodeKind>()

  static func of(_ type: Any.Type) -> NodeKind {
    cache.value(for: ObjectIdentifier(type)) {
      NodeKind(
        conjunction: type as? any _ConjunctionParts.Type,
        list: type as? any _ConjunctionList.Type,
        translatable: type as? any QueryTranslatable.Type)
    }
  }
}

/// A part of a predicate the engine does not evaluate, described for `explain`.
struct Untranslatable: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// A `PredicateExpressions` node the engine understands.
protocol QueryTranslatable {
  /// The node as an engine expression.
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression
}

/// `PredicateExpressions.Conjunction`, seen without its operand types.
protocol _ConjunctionParts {
  var parts: (Any, Any) { get }
}

/// A ``CompoundPredicate/and(_:)``, seen without its input type.
protocol _ConjunctionList {
  /// The inner predicates' expressions, when this is a conjunction.
  func conjunctList(_ translator: PredicateTranslator) throws -> [Any]?
}

/// The name of a type without its module and generic arguments.
func shortName(_ type: Any.Type) -> String {
  let name = String(describing: type)
  return String(name.prefix { $0 != "<" })
}
