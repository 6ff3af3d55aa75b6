/// A condition compiled for one table: a test of one row, and (for conditions on the tested
/// object's own columns) a vectorized form that narrows a chunk's selection in a tight loop.
struct CompiledCondition {
  /// Whether a row satisfies the condition.
  let test: (Int) -> Bool
  /// Narrows a selection to the rows that satisfy the condition, reading a column chunk
  /// directly; `nil` when the condition has no such form (then ``test`` runs per row).
  let refine: ((RowSelection) -> Void)?
  /// Counts the live rows of a chunk that satisfy the condition, given the chunk's stamps;
  /// only for a single test on one column.
  let countChunk: ((Int, UnsafeBufferPointer<UInt32>) -> Int)?
  /// Keeps, in order, the rows of a list (live rows an index yielded) that satisfy the
  /// condition, reading the column in a loop without a call per row; `nil` when the condition
  /// has no such form (then ``test`` runs per row).
  let filterRows: ((inout [Int32]) -> Void)?
  /// The result, when it is the same for every row.
  let constant: Bool?
  /// A rough cost per row, to evaluate cheap conjuncts first.
  let cost: Int
  /// Where the condition's arithmetic records a fault, when it has arithmetic that can fault:
  /// set on a table's whole row test (``QueryPlanner/rowTest(_:entity:catalog:tables:committed:)``),
  /// which the plan's run checks (``QueryPlan/guardingFaults(_:)``).
  var faults: ArithmeticFaultSlot?

  init(
    test: @escaping (Int) -> Bool, refine: ((RowSelection) -> Void)? = nil,
    countChunk: ((Int, UnsafeBufferPointer<UInt32>) -> Int)? = nil,
    filterRows: ((inout [Int32]) -> Void)? = nil, cost: Int = 4
  ) {
    self.test = test
    self.refine = refine
    self.countChunk = countChunk
    self.filterRows = filterRows
    self.constant = nil
    self.cost = refine == nil ? cost : 1
  }

  /// A condition with the same result on every row.
  init(constant: Bool) {
    self.test = { _ in constant }
    self.refine = nil
    self.countChunk = nil
    self.filterRows = nil
    self.constant = constant
    self.cost = 0
  }

  /// Narrows `selection` to the rows that satisfy the condition.
  @inline(__always)
  func narrow(_ selection: RowSelection) {
    if let refine {
      refine(selection)
    } else {
      let test = test
      selection.keepRows(where: test)
    }
  }

  /// Keeps the rows of `rows` (live rows of the table) that satisfy the condition, in order.
  @inline(__always)
  func filter(_ rows: inout [Int32]) {
    if let filterRows {
      filterRows(&rows)
    } else if let constant {
      if !constant { rows.removeAll() }
    } else {
      let test = test
      rows.removeAll { !test(Int($0)) }
    }
  }

  /// The condition that holds when this one does not.
  var negated: CompiledCondition {
    if let constant { return CompiledCondition(constant: !constant) }
    let test = test
    return CompiledCondition(test: { !test($0) }, cost: cost)
  }

  /// All of `conditions`, cheapest first, or in their order when `keepingOrder` (each is
  /// then tested only on rows that passed those before it, as Swift's `&&` does).
  static func all(_ conditions: [CompiledCondition], keepingOrder: Bool = false)
    -> CompiledCondition
  {
    if conditions.contains(where: { $0.constant == false }) {
      return CompiledCondition(constant: false)
    }
    let parts = ordered(conditions.filter { $0.constant == nil }, keepingOrder)
    if parts.isEmpty { return CompiledCondition(constant: true) }
    if parts.count == 1 { return parts[0] }
    let tests = parts.map(\.test)
    let test: (Int) -> Bool = { row in
      for test in tests where !test(row) { return false }
      return true
    }
    return CompiledCondition(
      test: test,
      refine: { selection in
        for part in parts where selection.count > 0 { part.narrow(selection) }
      },
      filterRows: { rows in
        for part in parts where !rows.isEmpty { part.filter(&rows) }
      }, cost: parts.reduce(0) { $0 + $1.cost })
  }

  /// Any of `conditions`, cheapest first, or in their order when `keepingOrder` (each is
  /// then tested only on rows that failed those before it, as Swift's `||` does).
  static func any(_ conditions: [CompiledCondition], keepingOrder: Bool = false)
    -> CompiledCondition
  {
    if conditions.contains(where: { $0.constant == true }) {
      return CompiledCondition(constant: true)
    }
    let parts = ordered(conditions.filter { $0.constant == nil }, keepingOrder)
    if parts.isEmpty { return CompiledCondition(constant: false) }
    if parts.count == 1 { return parts[0] }
    let tests = parts.map(\.test)
    return CompiledCondition(
      test: { row in
        for test in tests where test(row) { return true }
        return false
      }, cost: parts.reduce(0) { $0 + $1.cost })
  }

  /// `parts` cheapest first, or as they are when `keepingOrder`.
  private static func ordered(_ parts: [CompiledCondition], _ keepingOrder: Bool)
    -> [CompiledCondition]
  {
    keepingOrder ? parts : parts.sorted { $0.cost < $1.cost }
  }
}
