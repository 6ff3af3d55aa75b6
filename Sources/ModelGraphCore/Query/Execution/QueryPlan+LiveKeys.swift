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
}
