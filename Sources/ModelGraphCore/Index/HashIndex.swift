/// One table's entries of a hash index: the rows of each key, ascending.
final class HashIndex<Key: ColumnValue>: @unchecked Sendable {
  // @unchecked Sendable: immutable after init.

  /// The rows of each key, ascending.
  let buckets: [Key: [Int32]]
  /// The number of entries.
  let count: Int

  init(buckets: [Key: [Int32]], count: Int) {
    self.buckets = buckets
    self.count = count
  }

  /// The index of the live rows of `column` in `stamps`.
  ///
  /// - Complexity: O(n) for n live rows.
  static func build(column: Column<Key>, stamps: Column<UInt32>) -> HashIndex {
    var buckets: [Key: [Int32]] = [:]
    var count = 0
    stamps.forEachChunk { start, stamps in
      column.withChunk(start >> AnyColumn.chunkShift) { values in
        for offset in stamps.indices where stamps[offset] & 1 == 1 {
          buckets[values[offset], default: []].append(Int32(start + offset))
          count += 1
        }
      }
    }
    return HashIndex(buckets: buckets, count: count)
  }

  /// This index with `delta` applied.
  ///
  /// - Complexity: O(n) to copy the table of keys, plus O(m × bucket size) for m changes.
  func applying(_ delta: IndexDelta<Key>) -> HashIndex {
    guard !delta.isEmpty else { return self }
    var buckets = buckets
    for (key, row) in delta.removed {
      guard var rows = buckets[key], let position = rows.binarySearch(row) else { continue }
      rows.remove(at: position)
      buckets[key] = rows.isEmpty ? nil : rows
    }
    for (key, row) in delta.added {
      var rows = buckets[key] ?? []
      rows.insert(row, at: rows.insertionPoint(row))
      buckets[key] = rows
    }
    return HashIndex(buckets: buckets, count: count - delta.removed.count + delta.added.count)
  }

  /// The rows whose key is `key`, ascending.
  ///
  /// - Complexity: O(1).
  func rows(_ key: Key) -> [Int32] { buckets[key] ?? [] }
}

extension Array where Element == Int32 {
  /// The position of the first element not below `value` (the array is sorted).
  func insertionPoint(_ value: Int32) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if self[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The position of `value` in the sorted array, if present.
  func binarySearch(_ value: Int32) -> Int? {
    let position = insertionPoint(value)
    return position < count && self[position] == value ? position : nil
  }
}
