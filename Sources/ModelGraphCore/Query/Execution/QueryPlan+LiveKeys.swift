extension QueryPlan {
  /// Whether the plan reads every live row of its tables, class by class and by row: each
  /// table scanned without a condition, in natural order. Its keys are then read from the
  /// tables' row stamps (``liveKeys()``) without a row selection or an intermediate array.
  var readsEveryLiveRow: Bool {
    guard case .natural = order else { return false }
    for plan in tables {
      guard case .scan = plan.access, plan.condition == nil else { return false }
    }
    return true
  }

  /// The keys of the live rows of the tables, class by class and by row, sliced by the
  /// request's offset and limit (a plan that ``readsEveryLiveRow``).
  ///
  /// Sized from the tables' live counts; each row's key is written before its stamp says
  /// whether it is live (and counted only then), so the loop has no branch per row.
  /// - Complexity: O(rows of the tables read), each row a load and a store; a limit stops
  ///   the walk at the last key wanted.
  func liveKeys() -> [ObjectKey] {
    let tables = self.tables
    var live = 0
    for plan in tables { live += plan.table.liveCount }
    let end = min(live, request.stopAfter ?? live)
    let start = min(max(request.offset, 0), end)
    // An empty array made with an uninitialized capacity of 0 writes its count into the
    // storage every empty array shares.
    guard start < end else { return [] }
    var keys = [ObjectKey](unsafeUninitializedCapacity: end) { buffer, count in
      let target = buffer.baseAddress!
      for plan in tables where count < end {
        count = Self.appendLiveKeys(of: plan, to: target, count: count, end: end)
      }
    }
    if start > 0 { keys.removeSubrange(..<start) }
    return keys
  }

  /// Writes the keys of `plan`'s table's live rows at `target + count` onwards, up to `end`
  /// keys in all; returns the new count.
  private static func appendLiveKeys(
    of plan: TablePlan, to target: UnsafeMutablePointer<ObjectKey>, count: Int, end: Int
  ) -> Int {
    let entity = plan.entity.index
    let stamps = plan.table.stamps
    var count = count
    for chunk in 0..<stamps.chunkCount where count < end {
      let first = chunk &<< AnyColumn.chunkShift
      stamps.withChunk(chunk) { chunkStamps in
        if chunkStamps.count <= end &- count {
          // Room for every row of the chunk: the writes stay below `end`.
          for index in chunkStamps.indices {
            let stamp = chunkStamps[index]
            (target + count).initialize(
              to: ObjectKey(entity: entity, row: first &+ index, generation: stamp &>> 1))
            count &+= Int(stamp & 1)
          }
        } else {
          for index in chunkStamps.indices where chunkStamps[index] & 1 != 0 {
            (target + count).initialize(
              to: ObjectKey(
                entity: entity, row: first &+ index, generation: chunkStamps[index] &>> 1))
            count &+= 1
            if count == end { return }
          }
        }
      }
    }
    return count
  }

  /// Appends the keys of the live rows among `rows` (an index's answer, with no condition
  /// left to test) of `table`, in order, until `keys` holds `stop` keys.
  ///
  /// The rows go in blocks of ``stampBlock``: a first loop only loads each row's stamp into a
  /// buffer on the stack, then a second makes the keys of the live rows from the buffer (a
  /// stamp gives both the row's liveness and its generation). The stamps of rows an index
  /// scatters over a large table miss the cache, and a loop of independent loads with
  /// nothing else to do keeps many more of those misses in flight than one that also
  /// appends. A block holds no more rows than keys are still wanted, so a small limit loads
  /// few stamps.
  /// - Returns: `false` when `keys` reached `stop`.
  static func appendLiveKeys(
    _ rows: [Int32], of table: Table, entity: Int, to keys: inout [ObjectKey], stop: Int?
  ) -> Bool {
    let stamps = table.stamps
    let count = stamps.count
    let stop = stop ?? Int.max
    return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: stampBlock) { loaded in
      var start = 0
      while start < rows.count {
        let wanted = max(stop - keys.count, 1)
        let end = start + min(rows.count - start, loaded.count, wanted)
        for index in start..<end {
          let row = Int(rows[index])
          // A row past the table's end (none in a consistent index) counts as dead.
          loaded[index &- start] = row < count ? stamps[row] : 0
        }
        for index in start..<end {
          let stamp = loaded[index &- start]
          guard stamp & 1 == 1 else { continue }
          keys.append(ObjectKey(entity: entity, row: Int(rows[index]), generation: stamp >> 1))
          if keys.count >= stop { return false }
        }
        start = end
      }
      return true
    }
  }

  /// The number of rows whose stamps ``appendLiveKeys(_:of:entity:to:stop:)`` loads in one go.
  private static var stampBlock: Int { 256 }
}
