/// A compiled query: the tables to read, how to read each, and how to order and slice the
/// results. Made by ``QueryPlanner``; run with ``keys(residual:)`` or ``count(residual:)``.
///
/// A plan reads the tables it was made for; make a new one after the tables change. Not
/// `Sendable`: it belongs to the context (or thread) that made it.
public final class QueryPlan {
  /// The request planned.
  public internal(set) var request: QueryRequest
  /// The class queried.
  let entity: ResolvedEntity
  /// The tables read, in order; pruned tables are not among them (refilled in place by the
  /// bound plan that made the plan, when nothing else holds it: ``BoundPlan``).
  @exclusivity(unchecked) var tables: [TablePlan]
  /// Tables skipped because the condition is false for their class, with the reason.
  let pruned: [(entity: ResolvedEntity, reason: String)]
  /// How results are ordered.
  let order: OrderStrategy
  /// The sort comparator over the tables read (keys, then table, then row), when sorting.
  let comparator: ((RowReference, RowReference) -> Int)?
  /// The comparator of the first sort key alone, for an index merge.
  let firstKeyComparator: ((RowReference, RowReference) -> Int)?
  /// Whether objects the reading session inserted and has not saved are left out.
  let onlyCommitted: Bool
  /// Whether the plan was made from a cached plan of a request of the same shape.
  public let isFromCache: Bool
  /// Where the sort comparators' arithmetic records a fault, when a sort key has arithmetic
  /// (each table's row test has its own, ``CompiledCondition/faults``).
  let sortFaults: ArithmeticFaultSlot?
  /// An index merge's cursor and arrays, kept for the plan's next run (a bound plan refills
  /// the plan for each request of its shape); made by the first run of a merge.
  var mergeState: IndexMergeState?

  init(
    request: QueryRequest, entity: ResolvedEntity, tables: [TablePlan],
    pruned: [(entity: ResolvedEntity, reason: String)], order: OrderStrategy,
    comparator: ((RowReference, RowReference) -> Int)?,
    firstKeyComparator: ((RowReference, RowReference) -> Int)?, onlyCommitted: Bool,
    sortFaults: ArithmeticFaultSlot? = nil, isFromCache: Bool = false
  ) {
    self.isFromCache = isFromCache
    self.sortFaults = sortFaults
    self.request = request
    self.entity = entity
    self.tables = tables
    self.pruned = pruned
    self.order = order
    self.comparator = comparator
    self.firstKeyComparator = firstKeyComparator
    self.onlyCommitted = onlyCommitted
  }
}

/// A row of one of a plan's tables.
struct RowReference {
  /// The table's position in the plan.
  var table: Int
  /// The row.
  var row: Int
}
