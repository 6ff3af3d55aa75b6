/// How one table of a query is read.
enum TableAccess {
  /// Every live row, chunk by chunk.
  case scan
  /// The rows an index yields for a condition, ascending.
  case rows([Int32])
  /// The rows of an ordered index in key order, within a range (for a sort the index gives).
  case ordered(any TableIndex, IndexValueRange)
}

/// The plan for one table of a query.
struct TablePlan {
  /// The table's position in the plan (ties between tables sort by it).
  let position: Int
  /// The table's class.
  let entity: ResolvedEntity
  /// The table read.
  let table: Table
  /// The condition as specialized for this class, less the conjuncts the access answers;
  /// `nil` when every row the access yields matches.
  var predicate: QueryExpression?
  /// The compiled condition; `nil` when every row the access yields matches.
  var condition: CompiledCondition?
  /// How the table is read.
  var access: TableAccess
  /// How the access was chosen, for `explain` (formatted only when asked for).
  var accessNote: () -> String
}

/// How a plan orders its results.
enum OrderStrategy {
  /// Class by class, then by row: the order of an unsorted fetch.
  case natural
  /// The tables' ordered indexes merged by the first sort key; stops once the window is full.
  case indexMerge(ascending: Bool)
  /// The best `k` matches kept in a heap while scanning.
  case topK(Int)
  /// Every match sorted.
  case fullSort
}
