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
      return try naturalKeys(stop: stop, residual)
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
      // Starting the cursor fills the state's arrays of tables, tests and classes.
      guard let cursor = mergeCursor(ascending: ascending, state: state) else { return [] }
      if let stop, request.sort.count <= 1, residual == nil {
        return Self.mergedKeys(cursor, stop: stop, offset: request.offset, state: state)
      }
      found = try merge(cursor, stop: stop, residual, state: state)
      let keys = Self.keys(found, request, tables: state.tables, entities: state.entities)
      state.recycle(&found)
      return keys
    }
    // The tables and entities as plain arrays: reading a whole `TablePlan` per row would
    // retain and release each of its fields.
    return Self.keys(
      found, request, tables: tables.map(\.table), entities: tables.map(\.entity.index))
  }

  /// The keys of the matching rows in table order, then row order, sliced by the request's
  /// offset and limit.
  ///
  /// Each key is made as its row is found (its table and class are the walk's own), so no
  /// list of row references is kept and mapped afterwards.
  private func naturalKeys(stop: Int?, _ residual: ((ObjectKey) throws -> Bool)?) throws
    -> [ObjectKey]
  {
    var keys: [ObjectKey] = []
    // The rows an index lookup gives are known: room for them at once, rather than growing
    // the array row by row (a copy at each doubling).
    var expected = 0
    for plan in tables {
      if case .rows(let rows) = plan.access { expected += rows.count }
    }
    keys.reserveCapacity(stop.map { min($0, expected) } ?? expected)
    for plan in tables {
      let table = plan.table
      let entity = plan.entity.index
      if residual == nil, plan.condition == nil, case .rows(let rows) = plan.access {
        if !Self.appendLiveKeys(rows, of: table, entity: entity, to: &keys, stop: stop) { break }
        continue
      }
      let more = try forEachMatch(plan, residual) { row in
        keys.append(ObjectKey(entity: entity, row: row, generation: table.generation(of: row)))
        return stop.map { keys.count < $0 } ?? true
      }
      if !more { break }
    }
    let start = min(max(request.offset, 0), keys.count)
    let end =
      request.limit.map { min(keys.count, QueryRequest.clippedEnd(offset: start, limit: $0)) }
      ?? keys.count
    guard start > 0 || end < keys.count else { return keys }
    return Array(keys[start..<end])
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

  /// The cursor merging the tables' ordered index walks within this run's ranges: the one
  /// `state` kept from an earlier run over the same index views, restarted, or a new one
  /// (kept for the next run); `nil` when the plan's tables were all pruned or a range does
  /// not convert to the indexes' keys (the merge then yields no rows).
  ///
  /// Fills `state`'s ranges, tables, row tests and classes by table position.
  private func mergeCursor(ascending: Bool, state: IndexMergeState) -> MergeCursor? {
    // The tables read from a local array: elements of the plan's own (a `var`, refilled by a
    // bound plan) would be copied whole for each field read.
    let tables = self.tables
    state.clear()
    var isSameCursor =
      state.cursor != nil && state.ascending == ascending && state.indexes.count == tables.count
    for position in tables.indices {
      guard case .ordered(let index, let range) = tables[position].access else { return nil }
      if isSameCursor && state.indexes[position] !== index { isSameCursor = false }
      state.ranges.append(range)
      state.tables.append(tables[position].table)
      state.tests.append(tables[position].condition?.test)
      state.entities.append(tables[position].entity.index)
    }
    if isSameCursor, let kept = state.cursor {
      if kept.restart(state.ranges) { return kept }
      state.dropCursor()
    }
    var indexes: [any TableIndex] = []
    indexes.reserveCapacity(tables.count)
    for plan in tables {
      guard case .ordered(let index, _) = plan.access else { return nil }
      indexes.append(index)
    }
    // A plan whose tables were all pruned merges nothing.
    guard let first = indexes.first,
      let made = first.mergeCursor(
        with: Array(indexes.dropFirst()), ranges: state.ranges, ascending: ascending)
    else {
      state.dropCursor()
      return nil
    }
    state.keep(made, over: indexes, ascending: ascending)
    return made
  }

  /// Takes the rows of `merged` (by the first sort key), keeping rows that satisfy the
  /// condition and `residual`, until `stop` are found (and, with more sort keys, the rows
  /// tied with the last on the first key), then sorts them by every key.
  ///
  /// Reads `state`'s tables, row tests and classes (``mergeCursor(ascending:state:)``), and
  /// returns rows in `state`'s buffer of found rows.
  private func merge(
    _ merged: MergeCursor, stop: Int?, _ residual: ((ObjectKey) throws -> Bool)?,
    state: IndexMergeState
  ) throws -> [RowReference] {
    var found: [RowReference] = []
    swap(&found, &state.found)
    let hasMoreKeys = request.sort.count > 1
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

  /// The keys of the first `stop` rows of `cursor` that are alive and pass their table's test
  /// (`state`'s tables, tests and classes, by table position), less the first `offset`.
  ///
  /// The rows are taken from the cursor a batch at a time (in `state`'s batch) and then
  /// checked in a loop of independent reads, so the cache misses of rows spread over a table
  /// overlap instead of waiting on each other; each key is made as its row passes, so no
  /// list of row references is kept and mapped afterwards.
  private static func mergedKeys(
    _ cursor: MergeCursor, stop: Int, offset: Int, state: IndexMergeState
  ) -> [ObjectKey] {
    guard stop > 0 else { return [] }
    let skipped = max(offset, 0)
    let batchSize = min(stop, 1_024)
    var keys: [ObjectKey] = []
    keys.reserveCapacity(min(max(stop &- skipped, 0), batchSize))
    let tables = state.tables
    let tests = state.tests
    let entities = state.entities
    var batch: [RowReference] = []
    swap(&batch, &state.batch)
    defer { swap(&batch, &state.batch) }
    batch.reserveCapacity(batchSize)
    var taken = 0
    var isExhausted = false
    while taken < stop && !isExhausted {
      batch.removeAll(keepingCapacity: true)
      isExhausted = !cursor.fill(&batch, min(stop &- taken, batchSize))
      // The table is read from the array at each use: a local would retain and release it
      // per row.
      for candidate in batch where tables[candidate.table].isAlive(candidate.row) {
        guard tests[candidate.table]?(candidate.row) ?? true else { continue }
        taken &+= 1
        guard taken > skipped else { continue }
        keys.append(
          ObjectKey(
            entity: entities[candidate.table], row: candidate.row,
            generation: tables[candidate.table].generation(of: candidate.row)))
      }
    }
    return keys
  }

}
