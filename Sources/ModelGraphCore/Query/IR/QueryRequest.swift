/// What a front end asks the engine for: a class, a condition, an order and a window.
///
/// The engine evaluates ``predicate`` itself. A condition it could not be given (a part the
/// front end could not translate) is the front end's ``residual``: the engine asks it about
/// each object that passed ``predicate``, before sorting and slicing.
public struct QueryRequest: Sendable {
  /// The index of the class queried in the catalog.
  public var entity: Int
  /// Whether objects of subclasses are included (a deep query) or only of exactly the class.
  public var includesSubclasses: Bool
  /// The condition the engine evaluates; every object when `nil`.
  public var predicate: QueryExpression?
  /// A description of the condition left to the front end, if any, for `explain`.
  public var residual: String?
  /// The sort order; the engine's order (class, then row) when empty.
  public var sort: [QuerySortKey]
  /// How many matching objects to skip, after sorting.
  public var offset: Int
  /// The most objects to return; all when `nil`.
  public var limit: Int?
  /// The shape of ``predicate`` as the front end names it, if it does (the plan cache then
  /// keys on it instead of the condition's shape). Clear it when changing ``predicate``.
  package var shapeIdentity: QueryShapeIdentity?
  /// ``predicate`` with a slot (``QueryExpression/slot(_:)``) where each of the values named
  /// by ``shapeIdentity`` stands, if the front end knows it: a plan made for the request is
  /// then kept ready to run with another request's values (``QueryPlanCache``). Clear it when
  /// changing ``predicate``.
  package var slotted: QueryExpression?

  /// A request for every object of `entity` (and its subclasses when `includesSubclasses`).
  public init(
    entity: Int, includesSubclasses: Bool = true, predicate: QueryExpression? = nil,
    sort: [QuerySortKey] = [], offset: Int = 0, limit: Int? = nil
  ) {
    self.entity = entity
    self.includesSubclasses = includesSubclasses
    self.predicate = predicate
    self.residual = nil
    self.shapeIdentity = nil
    self.slotted = nil
    self.sort = sort
    self.offset = offset
    self.limit = limit
  }

  /// `offset + limit`, the number of sorted matches a plan needs before it can stop; at most
  /// `Int.max`, however large the two.
  var stopAfter: Int? { limit.map { Self.clippedEnd(offset: offset, limit: $0) } }

  /// `offset + limit` with negative parts as 0, clipped to `Int.max` instead of overflowing.
  package static func clippedEnd(offset: Int, limit: Int) -> Int {
    let (sum, overflow) = max(0, offset).addingReportingOverflow(max(0, limit))
    return overflow ? Int.max : sum
  }
}
