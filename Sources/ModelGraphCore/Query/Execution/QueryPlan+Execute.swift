extension QueryPlan {
  /// The keys of the objects the query selects, in its order, sliced by its offset and limit.
  ///
  /// - Parameter residual: The front end's test of an object that passed the engine's
  ///   condition, for a part of the condition the engine was not given; it runs before
  ///   sorting and slicing.
  /// - Throws: What `residual` throws.
  /// - Complexity: O(n) for n rows of the tables scanned (vectorized for conditions on the
  ///   object's own attributes), O(m) for m rows an index yields; plus O(m log k) for a sort
  ///   with a limit (k = offset + limit), O(m log m) without one, and O(k) for a sort an
  ///   index merge answers. Without a condition, a residual or a sort, each row of the
  ///   tables is a load and a store (``liveKeys()``).
  /// - Throws: ``QueryError`` (``QueryError/Code/arithmeticOverflow``,
  ///   ``QueryError/Code/divisionByZero``) when arithmetic in the condition or a sort key
  ///   faulted on a row the plan tested (which rows it tests depends on the plan: see the
  ///   codes); what `residual` throws.
  public func keys(residual: ((ObjectKey) throws -> Bool)? = nil) throws -> [ObjectKey] {
    if residual == nil && readsEveryLiveRow { return liveKeys() }
    return try guardingFaults { try matchingKeys(residual) }
  }

  /// ``keys(residual:)``, without checking for arithmetic faults.
  private func matchingKeys(_ residual: ((ObjectKey) throws -> Bool)?) throws -> [ObjectKey] {
    let stop = request.stopAfter
    var found: [RowReference] = []
    switch order {
    case .natural:
      // The rows an index lookup gives are known: room for them at once, rather than growing
      // the array row by row (a copy at each doubling).
      var expected = 0
      for plan in tables {
        if case .rows(let rows) = plan.access { expected += rows.count }
      }
      found.reserveCapacity(stop.map { min($0, expected) } ?? expected)
      for plan in tables {
        let more = try forEachMatch(plan, residual) { row in
          found.append(RowReference(table: plan.position, row: row))
          return stop.map { found.count < $0 } ?? true
        }
        if !more { break }
      }
    case .topK(let capacity):
      var heap = TopK(capacity: capacity, compare: comparator!)
      for plan in tables {
        _ = try forEachMatch(plan, residual) { row in
          heap.offer(RowReference(table: plan.position, row: row))
          return true
        }
      }
      found = heap.sorted()
    case .fullSort:
      for plan in tables {
        _ = try forEachMatch(plan, residual) { row in
          found.append(RowReference(table: plan.position, row: row))
          return true
        }
      }
      let compare = comparator!
      found.sort { compare($0, $1) < 0 }
    case .indexMerge(let ascending):
      let state = mergeStateForRun()
      state.isRunning = true
      defer { state.isRunning = false }
      found = try merge(ascending: ascending, stop: stop, residual, state: state)
      // The merge filled the state's arrays of tables and classes.
      let keys = Self.keys(found, request, tables: state.tables, entities: state.entities)
      state.recycle(&found)
      return keys
    }
    // The tables and entities as plain arrays: reading a whole `TablePlan` per row would
    // retain and release each of its fields.
    return Self.keys(
      found, request, tables: tables.map(\.table), entities: tables.map(\.entity.index))
  }

  /// The keys of `found`, sliced by `request`'s offset and limit; `tables` and `entities`
  /// give each table position's table and class.
  private static func keys(
    _ found: [RowReference], _ request: QueryRequest, tables: [Table], entities: [Int]
  ) -> [ObjectKey] {
    let start = min(max(request.offset, 0), found.count)
    let end =
      request.limit.map { min(found.count, QueryRequest.clippedEnd(offset: start, limit: $0)) }
      ?? found.count
    return found[start..<end].map { reference in
      ObjectKey(
        entity: entities[reference.table], row: reference.row,
        generation: tables[reference.table].generation(of: reference.row))
    }
  }

  /// The merge state this run uses: the plan's own (made on its first merge), or, while
  /// another run of the plan uses that one, a state of this run's own.
  private func mergeStateForRun() -> IndexMergeState {
    if let kept = mergeState {
      return kept.isRunning ? IndexMergeState() : kept
    }
    let made = IndexMergeState()
    mergeState = made
    return made
  }

  /// The number of objects the query selects, after its offset and limit.
  ///
  /// - Parameter residual: As for ``keys(residual:)``.
  /// - Throws: As ``keys(residual:)``.
  /// - Complexity: O(tables) for a query without a condition; otherwise O(n) for n rows
  ///   scanned (counted chunk by chunk for a test of one column) or O(m) for m rows an index
  ///   yields.
  public func count(residual: ((ObjectKey) throws -> Bool)? = nil) throws -> Int {
    try guardingFaults { try matchingCount(residual) }
  }

  /// ``count(residual:)``, without checking for arithmetic faults.
  private func matchingCount(_ residual: ((ObjectKey) throws -> Bool)?) throws -> Int {
    let stop = request.stopAfter
    var total = 0
    for plan in tables {
      if residual == nil, case .scan = plan.access {
        total += Self.countScan(plan)
      } else {
        _ = try forEachMatch(plan, residual) { _ in
          total += 1
          return stop.map { total < $0 } ?? true
        }
      }
      if let stop, total >= stop { break }
    }
    let offset = max(request.offset, 0)
    total = max(total - offset, 0)
    return request.limit.map { min(total, max($0, 0)) } ?? total
  }

  /// The live rows of a scanned table that satisfy its condition.
  private static func countScan(_ plan: TablePlan) -> Int {
    guard let condition = plan.condition else { return plan.table.liveCount }
    let stamps = plan.table.stamps
    var total = 0
    if let countChunk = condition.countChunk {
      for chunk in 0..<stamps.chunkCount {
        total += stamps.withChunk(chunk) { countChunk(chunk, $0) }
      }
      return total
    }
    let selection = RowSelection()
    for chunk in 0..<stamps.chunkCount {
      stamps.withChunk(chunk) {
        selection.selectLive($0, chunkStart: chunk << AnyColumn.chunkShift)
      }
      if selection.count > 0 { condition.narrow(selection) }
      total += selection.count
    }
    return total
  }

  /// Calls `body` with each row of the table that satisfies the condition and `residual`, in
  /// row order; stops when `body` returns `false`.
  ///
  /// - Returns: `false` when `body` stopped the walk.
  private func forEachMatch(
    _ plan: TablePlan, _ residual: ((ObjectKey) throws -> Bool)?, _ body: (Int) throws -> Bool
  ) throws -> Bool {
    let table = plan.table
    let entity = plan.entity.index
    func accept(_ row: Int) throws -> Bool {
      guard let residual else { return try body(row) }
      let key = ObjectKey(entity: entity, row: row, generation: table.generation(of: row))
      return try residual(key) ? body(row) : true
    }
    var rows: [Int32]
    switch plan.access {
    case .scan:
      let selection = RowSelection()
      let stamps = table.stamps
      for chunk in 0..<stamps.chunkCount {
        stamps.withChunk(chunk) {
          selection.selectLive($0, chunkStart: chunk << AnyColumn.chunkShift)
        }
        guard selection.count > 0 else { continue }
        plan.condition?.narrow(selection)
        if try !selection.forEachRow(accept) { return false }
      }
      return true
    case .rows(let found):
      rows = found
    case .ordered(let index, let range):
      rows = index.rows(in: range) ?? []
    }
    // The live rows, then the condition on them in one loop (a column comparison reads its
    // column without a call per row), a block at a time: a walk that `body` stops early (a
    // limit) tests no more than one block past the row it stopped at.
    guard rows.count > Self.filterBlock else {
      guard let condition = plan.condition else {
        // Without a condition, the rows are read in place: removing the dead ones first
        // would copy the index's array.
        for row in rows where table.isAlive(Int(row)) {
          if try !accept(Int(row)) { return false }
        }
        return true
      }
      rows.removeAll { !table.isAlive(Int($0)) }
      condition.filter(&rows)
      for row in rows where try !accept(Int(row)) { return false }
      return true
    }
    var block: [Int32] = []
    block.reserveCapacity(Self.filterBlock)
    var start = 0
    while start < rows.count {
      let end = min(start + Self.filterBlock, rows.count)
      block.removeAll(keepingCapacity: true)
      for row in rows[start..<end] where table.isAlive(Int(row)) { block.append(row) }
      start = end
      plan.condition?.filter(&block)
      for row in block where try !accept(Int(row)) { return false }
    }
    return true
  }

  /// The rows an index yields that are tested together before any is handed on.
  static let filterBlock = 1024

  /// Merges the tables' ordered index walks by the first sort key, keeping rows that satisfy
  /// the condition and `residual`, until `stop` are found (and, with more sort keys, the rows
  /// tied with the last on the first key), then sorts them by every key.
  ///
  /// The cursor and arrays come from `state`: a cursor kept from an earlier run over the same
  /// index views is restarted with this run's ranges rather than made again. Fills `state`'s
  /// ranges, tables, row tests and classes by table position.
  private func merge(
    ascending: Bool, stop: Int?, _ residual: ((ObjectKey) throws -> Bool)?,
    state: IndexMergeState
  ) throws -> [RowReference] {
    // The tables read from a local array: elements of the plan's own (a `var`, refilled by a
    // bound plan) would be copied whole for each field read.
    let tables = self.tables
    state.clear()
    var isSameCursor =
      state.cursor != nil && state.ascending == ascending && state.indexes.count == tables.count
    for position in tables.indices {
      guard case .ordered(let index, let range) = tables[position].access else { return [] }
      if isSameCursor && state.indexes[position] !== index { isSameCursor = false }
      state.ranges.append(range)
      state.tables.append(tables[position].table)
      state.tests.append(tables[position].condition?.test)
      state.entities.append(tables[position].entity.index)
    }
    var cursor: MergeCursor?
    if isSameCursor, let kept = state.cursor {
      if kept.restart(state.ranges) { cursor = kept } else { state.dropCursor() }
    }
    if cursor == nil {
      var indexes: [any TableIndex] = []
      indexes.reserveCapacity(tables.count)
      for plan in tables {
        guard case .ordered(let index, _) = plan.access else { return [] }
        indexes.append(index)
      }
      // A plan whose tables were all pruned merges nothing.
      guard let first = indexes.first,
        let made = first.mergeCursor(
          with: Array(indexes.dropFirst()), ranges: state.ranges, ascending: ascending)
      else {
        state.dropCursor()
        return []
      }
      state.keep(made, over: indexes, ascending: ascending)
      cursor = made
    }
    let merged = cursor.unsafelyUnwrapped
    var found: [RowReference] = []
    swap(&found, &state.found)
    let hasMoreKeys = request.sort.count > 1
    if let stop, !hasMoreKeys, residual == nil {
      Self.mergeBatches(merged, stop: stop, into: &found, state: state)
      return found
    }
    let firstKey = firstKeyComparator!
    let tableObjects = state.tables
    let tests = state.tests
    let entities = state.entities
    while let (position, row) = merged.next() {
      let head = RowReference(table: position, row: Int(row))
      if let stop, found.count >= stop {
        guard hasMoreKeys, let last = found.last, firstKey(head, last) == 0 else { break }
      }
      let table = tableObjects[position]
      guard table.isAlive(head.row), tests[position]?(head.row) ?? true else { continue }
      if let residual {
        let key = ObjectKey(
          entity: entities[position], row: head.row, generation: table.generation(of: head.row))
        guard try residual(key) else { continue }
      }
      found.append(head)
    }
    if hasMoreKeys, let compare = comparator { found.sort { compare($0, $1) < 0 } }
    return found
  }

  /// Appends to `found` the first `stop` rows of `cursor` that are alive and pass their
  /// table's test (`state`'s tables and tests, by table position).
  ///
  /// The rows are taken from the cursor a batch at a time (in `state`'s batch) and then
  /// checked in a loop of independent reads, so the cache misses of rows spread over a table
  /// overlap instead of waiting on each other.
  private static func mergeBatches(
    _ cursor: MergeCursor, stop: Int, into found: inout [RowReference], state: IndexMergeState
  ) {
    guard stop > 0 else { return }
    let batchSize = min(stop, 1_024)
    found.reserveCapacity(batchSize)
    let tables = state.tables
    let tests = state.tests
    var batch: [RowReference] = []
    swap(&batch, &state.batch)
    defer { swap(&batch, &state.batch) }
    batch.reserveCapacity(batchSize)
    var isExhausted = false
    while found.count < stop && !isExhausted {
      batch.removeAll(keepingCapacity: true)
      isExhausted = !cursor.fill(&batch, min(stop - found.count, batchSize))
      for candidate in batch where tables[candidate.table].isAlive(candidate.row) {
        guard tests[candidate.table]?(candidate.row) ?? true else { continue }
        found.append(candidate)
      }
    }
  }
}
