import ModelGraphCore

/// The owners of a prefetch that one working table holds, in the order the fetch returned
/// them: their rows and their numbers among the prefetch's owners.
struct PrefetchBatch {
  /// The working table the owners' handles are bound to.
  let table: Table
  /// The owners' rows in ``table``.
  var rows: [Int] = []
  /// The owners' numbers (see ``PrefetchedRelations``), in the order of ``rows``.
  var owners: [Int] = []

  /// Resolves relationship `slot` (prefetched at `position`) of every owner of the batch into
  /// `made`: the keys of all the owners' lists in one call to the table, the objects of all
  /// the keys in one pass (``RelatedObjectResolver/resolve(_:into:in:)``), then one list per
  /// owner, which takes the objects' references without retaining them again.
  ///
  /// An owner's list holds the live objects of its keys, in order; an empty one allocates
  /// nothing.
  /// - Complexity: O(owners + keys).
  func resolve(
    slot: Int, position: Int, into made: PrefetchedRelations, buffers: inout PrefetchBuffers,
    in context: ModelContext
  ) {
    buffers.keys.removeAll(keepingCapacity: true)
    buffers.ends.removeAll(keepingCapacity: true)
    rows.withUnsafeBufferPointer {
      table.appendRelatedKeys(rows: $0, slot: slot, to: &buffers.keys, ends: &buffers.ends)
    }
    let stride = made.stride
    let ends = buffers.ends
    buffers.keys.withUnsafeBufferPointer { keys in
      guard !keys.isEmpty else {
        for owner in owners { made.setList([], at: owner &* stride &+ position) }
        return
      }
      withUnsafeTemporaryAllocation(of: Unmanaged<ModelObject>?.self, capacity: keys.count) {
        objects in
        var resolver = RelatedObjectResolver()
        resolver.resolve(keys, into: objects.baseAddress!, in: context)
        var start = 0
        for (index, owner) in owners.enumerated() {
          let end = ends[index]
          made.setList(Self.list(objects, start..<end), at: owner &* stride &+ position)
          start = end
        }
      }
    }
  }

  /// The objects of `range` of `objects` that are not `nil`, in order, taking over the
  /// reference each holds.
  private static func list(
    _ objects: UnsafeMutableBufferPointer<Unmanaged<ModelObject>?>, _ range: Range<Int>
  ) -> [ModelObject] {
    var live = 0
    for index in range where objects[index] != nil { live &+= 1 }
    guard live > 0 else { return [] }
    return [ModelObject](unsafeUninitializedCapacity: live) { buffer, count in
      var target = buffer.baseAddress!
      for index in range {
        guard let object = objects[index] else { continue }
        target.initialize(to: object.takeRetainedValue())
        target += 1
      }
      count = live
    }
  }
}

/// The owners a prefetch resolves, in one ``PrefetchBatch`` per working table.
struct PrefetchBatches {
  private(set) var batches: [PrefetchBatch] = []
  /// The batch the last owner went to: a deep fetch's owners come in runs of one table.
  private var last = -1

  /// Adds owner `owner`, at `row` of `table`, to the batch of its table.
  mutating func add(owner: Int, table: Table, row: Int) {
    if last < 0 || batches[last].table !== table {
      if let index = batches.firstIndex(where: { $0.table === table }) {
        last = index
      } else {
        batches.append(PrefetchBatch(table: table))
        last = batches.count - 1
      }
    }
    batches[last].rows.append(row)
    batches[last].owners.append(owner)
  }
}

/// The keys of one batch's lists and where each list ends, kept from batch to batch so a
/// prefetch grows them once.
struct PrefetchBuffers {
  var keys: [ObjectKey] = []
  var ends: [Int] = []
}
