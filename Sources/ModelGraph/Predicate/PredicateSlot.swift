import ModelGraphCore

/// A numbered place for a captured value in a translated predicate kept for reuse: the
/// engine's ``QueryExpression/slot(_:)``, which ``QueryExpression/fillingSlots(_:)`` fills and
/// a bound plan reads directly.
enum PredicateSlot {
  /// The slot numbered `index`.
  static func expression(_ index: Int) -> QueryExpression { .slot(index) }
}
