public import Foundation
import ModelGraphCore

/// Predicates combined at run time: the analogue of Core Data's `NSCompoundPredicate`.
///
/// On Linux a `#Predicate` cannot call another predicate's `evaluate`, so filters chosen at run
/// time (a search field, a toggle) cannot be written inside one closure. Combine them instead:
/// ```swift
/// var filters: [Predicate<Trip>] = [#Predicate { $0.startDate >= start }]
/// if let text { filters.append(#Predicate { $0.name.localizedStandardContains(text) }) }
/// let descriptor = FetchDescriptor(predicate: CompoundPredicate.and(filters))
/// ```
/// The result is an ordinary `Predicate`, which evaluates as its parts do; a fetch translates
/// each part, so the engine plans them together (a combined `and` uses indexes of any part).
public enum CompoundPredicate {
  /// The predicate that holds when every one of `predicates` does (`true` for none).
  public static func and<T>(_ predicates: [Predicate<T>]) -> Predicate<T> {
    Predicate { ComposedPredicate(mode: .and, predicates: predicates, input: $0) }
  }

  /// The predicate that holds when at least one of `predicates` does (`false` for none).
  public static func or<T>(_ predicates: [Predicate<T>]) -> Predicate<T> {
    Predicate { ComposedPredicate(mode: .or, predicates: predicates, input: $0) }
  }

  /// The predicate that holds when `predicate` does not.
  public static func not<T>(_ predicate: Predicate<T>) -> Predicate<T> {
    Predicate { ComposedPredicate(mode: .not, predicates: [predicate], input: $0) }
  }
}

/// The expression of a ``CompoundPredicate``: other predicates applied to its input.
public struct ComposedPredicate<Input>: StandardPredicateExpression {
  /// How the predicates combine.
  public enum Mode: String, Sendable, Codable {
    /// All of them.
    case and
    /// Any of them.
    case or
    /// Not the (only) one.
    case not
  }

  /// `Bool`.
  public typealias Output = Bool
  /// How the predicates combine.
  public let mode: Mode
  /// The predicates combined.
  public let predicates: [Predicate<Input>]
  /// The object tested.
  public let input: PredicateExpressions.Variable<Input>

  /// Combines `predicates` on `input`.
  public init(
    mode: Mode, predicates: [Predicate<Input>], input: PredicateExpressions.Variable<Input>
  ) {
    self.mode = mode
    self.predicates = predicates
    self.input = input
  }

  /// The combined result of the predicates on the input's value.
  public func evaluate(_ bindings: PredicateBindings) throws -> Bool {
    guard let value = bindings[input] else { throw PredicateError.undefinedVariable }
    switch mode {
    case .and:
      for predicate in predicates where try !predicate.evaluate(value) { return false }
      return true
    case .or:
      for predicate in predicates where try predicate.evaluate(value) { return true }
      return false
    case .not:
      return try !(predicates.first?.evaluate(value) ?? true)
    }
  }

  /// Not supported: a composed predicate is built at run time and is not archived.
  public func encode(to encoder: any Encoder) throws {
    throw EncodingError.invalidValue(
      self,
      .init(codingPath: encoder.codingPath, debugDescription: "CompoundPredicate is not archivable")
    )
  }

  /// Not supported: a composed predicate is built at run time and is not archived.
  public init(from decoder: any Decoder) throws {
    throw DecodingError.dataCorrupted(
      .init(codingPath: decoder.codingPath, debugDescription: "CompoundPredicate is not archivable")
    )
  }
}

extension ComposedPredicate: _ConjunctionList {
  func conjunctList(_ translator: PredicateTranslator) throws -> [Any]? {
    mode == .and ? try innerExpressions(translator) : nil
  }
}

extension ComposedPredicate: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    let parts = try translatedParts(translator)
    switch mode {
    case .and: return .and(parts)
    case .or: return .or(parts)
    case .not: return .not(parts.first ?? .alwaysTrue)
    }
  }

  /// The inner predicates' expressions, their variable bound to this expression's input.
  func innerExpressions(_ translator: PredicateTranslator) throws -> [Any] {
    let index = try translator.variable(input.key)
    return predicates.map { predicate in
      translator.alias(predicate.variable.key, to: index)
      return predicate.expression
    }
  }

  private func translatedParts(_ translator: PredicateTranslator) throws -> [QueryExpression] {
    try innerExpressions(translator).map(translator.translate)
  }
}
