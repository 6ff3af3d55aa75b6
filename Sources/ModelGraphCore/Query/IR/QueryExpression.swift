/// A query condition or value in the engine's own expression language.
///
/// Both front ends compile to it: the typed API translates a Foundation `#Predicate`, the runner
/// parses NSPredicate-style text. The tree names attributes and relationships (not slots), so it
/// can be printed and planned against any table of a hierarchy. Variable 0 is the object being
/// tested; closures in the source (`flatMap`, `contains(where:)`, `allSatisfy`) bind variables
/// 1, 2, … to the value they receive.
///
/// Optional values follow Swift: a `nil` anywhere in a path makes the path `nil`, `nil == nil` is
/// true, and a comparison with `nil` on either side is false.
///
/// ```swift
/// // $0.startDate >= lo && ($0 as? PersonalTrip).flatMap { $1.reason == 0 } ?? false
/// let condition = QueryExpression.and([
///   .comparison(.attribute(.root, "startDate"), .greaterOrEqual, .constant(.date(lo))),
///   .coalesce(
///     .flatMap(.cast(.root, "PersonalTrip"), variable: 1,
///       .comparison(.attribute(.variable(1), "reason"), .equal, .constant(.int(0)))),
///     .constant(.bool(false))),
/// ])
/// ```
public indirect enum QueryExpression: Sendable, Hashable {
  /// A value known when the query is built (`nil` is ``ModelValue/null``).
  case constant(ModelValue)
  /// A model object known when the query is built, by key; `nil` for an object that has none
  /// (never inserted), which equals no stored object.
  case object(ObjectKey?)
  /// The value bound to a variable: 0 is the object tested.
  case variable(Int)
  /// The attribute called `name` of the object the operand evaluates to.
  case attribute(QueryExpression, String)
  /// The relationship called `name` of the object the operand evaluates to: an object (or `nil`)
  /// for a to-one relationship, a collection of objects for a to-many one.
  case relationship(QueryExpression, String)
  /// The operand as an object of the named class, or `nil` when it is not one (`as?`).
  case cast(QueryExpression, String)
  /// Whether the operand is an object of the named class: of it or a subclass (`is`), or of
  /// exactly it when `isExact`.
  case typeTest(QueryExpression, String, isExact: Bool)
  /// Every operand is true (an empty list is true).
  case and([QueryExpression])
  /// At least one operand is true (an empty list is false).
  case or([QueryExpression])
  /// The operand is false.
  case not(QueryExpression)
  /// Two values compared.
  case comparison(QueryExpression, QueryComparisonOperator, QueryExpression)
  /// Arithmetic on two numbers of one type.
  case arithmetic(QueryExpression, QueryArithmeticOperator, QueryExpression)
  /// The operand negated (unary minus).
  case negative(QueryExpression)
  /// Integer arithmetic (the operand: an ``arithmetic(_:_:_:)`` or a ``negative(_:)``) on a
  /// Swift integer type narrower than 64 bits, computed as Swift computes it on that type: a
  /// result out of the type's range (`Int8.min / -1`, `Int8.min % -1` and `-Int8.min` too)
  /// is ``QueryError/Code/arithmeticOverflow``.
  case narrow(QueryExpression, QueryIntegerWidth)
  /// A test of a string against another.
  case string(QueryExpression, QueryStringOperator, QueryExpression)
  /// `caseInsensitiveCompare` of two strings, as an integer: -1, 0 or 1.
  case caseInsensitiveCompare(QueryExpression, QueryExpression)
  /// The first operand, or the second when the first is `nil` (`??`).
  case coalesce(QueryExpression, QueryExpression)
  /// The second operand when the first is true, else the third (`test ? a : b`).
  case conditional(QueryExpression, QueryExpression, QueryExpression)
  /// `nil` when the first operand is `nil`; otherwise the second, evaluated with `variable`
  /// bound to the first (`Optional.flatMap`, `if let`, optional chaining).
  case flatMap(QueryExpression, variable: Int, QueryExpression)
  /// The number of elements of a collection or characters of a string.
  case count(QueryExpression)
  /// Whether the collection (first operand) contains the element (second operand).
  case contains(QueryExpression, QueryExpression)
  /// Whether some element of the collection satisfies the condition, with `variable` bound to
  /// the element (`contains(where:)`).
  case any(QueryExpression, variable: Int, QueryExpression)
  /// Whether every element of the collection satisfies the condition (`allSatisfy`).
  case all(QueryExpression, variable: Int, QueryExpression)
  /// A part the front end could not translate, described for `explain`; the engine cannot
  /// evaluate it, so a plan that contains one leaves its conjunct to the front end.
  case opaque(String)

  /// The object being tested: variable 0.
  public static var root: QueryExpression { .variable(0) }

  /// The attribute called `name` of the object being tested.
  public static func attribute(_ name: String) -> QueryExpression { .attribute(.root, name) }

  /// `true`.
  public static var alwaysTrue: QueryExpression { .constant(.bool(true)) }

  /// `false`.
  public static var alwaysFalse: QueryExpression { .constant(.bool(false)) }
}
