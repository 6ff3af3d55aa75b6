/// One key of a query's sort order.
///
/// Values compare as Swift's `<` does for their type (strings by Unicode canonical ordering,
/// as Foundation's `SortDescriptor` without a string comparator). `nil` sorts before every
/// value in ascending order and after every value in descending order, as Foundation's
/// `SortDescriptor` does for optional key paths. Objects that tie on every key keep the
/// order of an unsorted fetch: class by class, then row by row.
public struct QuerySortKey: Sendable, Hashable, CustomStringConvertible {
  /// The value sorted by, usually an attribute of the object tested (`.attribute("startDate")`).
  public var expression: QueryExpression
  /// Whether smaller values come first.
  public var isAscending: Bool

  /// A sort key.
  public init(_ expression: QueryExpression, ascending: Bool = true) {
    self.expression = expression
    self.isAscending = ascending
  }

  /// `$0.startDate ascending`.
  public var description: String {
    "\(expression) \(isAscending ? "ascending" : "descending")"
  }
}
