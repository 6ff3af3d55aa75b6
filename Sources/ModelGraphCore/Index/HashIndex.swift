/// One table's entries of a hash index: the rows of each key, ascending.
///
/// The entries are split by the key's hash into partitions, two levels deep (256 groups of a
/// power-of-two number of partitions each, about 64 keys a partition). An index is immutable;
/// the index of a newer table version is made by ``applying(_:)``, which shares every partition
/// the changes do not touch, so carrying an index forward costs O(changes), not O(keys).
final class HashIndex<Key: ColumnValue>: @unchecked Sendable {
  // @unchecked Sendable: immutable after init.

  /// The rows of one key: most keys of a unique attribute have one, held without an array.
  enum Rows {
    case one(Int32)
    case many([Int32])

    var array: [Int32] {
      switch self {
      case .one(let row): [row]
      case .many(let rows): rows
      }
    }
  }

  typealias Partition = [Key: Rows]

  /// `groups[hash & 255][(hash >> 8) & (partitionsPerGroup - 1)]`.
  private let groups: [[Partition]]
  /// The number of entries.
  let count: Int

  private static var groupCount: Int { 256 }

  private init(groups: [[Partition]], count: Int) {
    self.groups = groups
    self.count = count
  }

  /// The partitions per group for `count` entries: about 64 keys a partition.
  private static func partitionsPerGroup(for count: Int) -> Int {
    var partitions = 1
    while partitions < 1 << 12 && partitions * groupCount * 64 < count { partitions <<= 1 }
    return partitions
  }

  @inline(__always)
  private static func position(of key: Key, partitions: Int) -> (group: Int, partition: Int) {
    let hash = key.hashValue
    return (hash & (groupCount - 1), (hash >> 8) & (partitions - 1))
  }

  /// An index of `entries` (rows ascending per key), partitioned for `count` entries.
  private static func make(_ entries: [(key: Key, row: Int32)], count: Int) -> HashIndex {
    let partitions = partitionsPerGroup(for: count)
    var lists = [[[Key: [Int32]]]](
      repeating: [[Key: [Int32]]](repeating: [:], count: partitions), count: groupCount)
    for (key, row) in entries {
      let (group, partition) = position(of: key, partitions: partitions)
      lists[group][partition][key, default: []].append(row)
    }
    let groups = lists.map { group in
      group.map { partition in
        partition.mapValues { rows in rows.count == 1 ? Rows.one(rows[0]) : .many(rows) }
      }
    }
    return HashIndex(groups: groups, count: count)
  }

  /// The index of the live rows of `column` in `stamps`.
  ///
  /// - Complexity: O(n) for n live rows.
  static func build(column: Column<Key>, stamps: Column<UInt32>) -> HashIndex {
    var entries: [(key: Key, row: Int32)] = []
    column.forEachLiveValue(stamps: stamps) { entries.append(($0, $1)) }
    return make(entries, count: entries.count)
  }

  /// The index of `entries` (key, row), given in any order.
  ///
  /// - Complexity: O(n log n).
  static func build(entries: [(key: Key, row: Int32)]) -> HashIndex {
    make(entries.sorted { $0.row < $1.row }, count: entries.count)
  }

  /// This index with `delta` applied.
  ///
  /// - Complexity: O(256 + m × (partition size + bucket size)) for m changes; O(n) when the
  ///   index has grown four times past its partitioning and is partitioned again.
  func applying(_ delta: IndexDelta<Key>) -> HashIndex {
    guard !delta.isEmpty else { return self }
    let newCount = count - delta.removed.count + delta.added.count
    let partitions = groups[0].count
    if newCount > 4 * partitions * Self.groupCount * 64 && partitions < 1 << 12 {
      return repartitioned(applying: delta, count: newCount)
    }
    var groups = groups
    for (key, row) in delta.removed {
      let (group, partition) = Self.position(of: key, partitions: partitions)
      guard let rows = groups[group][partition][key] else { continue }
      switch rows {
      case .one(let only):
        if only == row { groups[group][partition][key] = nil }
      case .many(var list):
        guard let found = list.binarySearch(row) else { continue }
        list.remove(at: found)
        groups[group][partition][key] =
          list.isEmpty ? nil : list.count == 1 ? .one(list[0]) : .many(list)
      }
    }
    for (key, row) in delta.added {
      let (group, partition) = Self.position(of: key, partitions: partitions)
      groups[group][partition][key, default: .many([])].insert(row)
    }
    return HashIndex(groups: groups, count: newCount)
  }

  private func repartitioned(applying delta: IndexDelta<Key>, count: Int) -> HashIndex {
    let removed = Set(delta.removed.map { RemovedEntry(key: $0.key, row: $0.row) })
    var entries: [(key: Key, row: Int32)] = []
    entries.reserveCapacity(count)
    for group in groups {
      for partition in group {
        for (key, rows) in partition {
          for row in rows.array where !removed.contains(RemovedEntry(key: key, row: row)) {
            entries.append((key, row))
          }
        }
      }
    }
    entries += delta.added
    entries.sort { $0.row < $1.row }
    return Self.make(entries, count: count)
  }

  private struct RemovedEntry: Hashable {
    var key: Key
    var row: Int32
  }

  /// Every key with its rows, ascending (for tests and checks).
  ///
  /// - Complexity: O(n).
  var entries: [Key: [Int32]] {
    var result: [Key: [Int32]] = [:]
    for group in groups {
      for partition in group {
        for (key, rows) in partition { result[key] = rows.array }
      }
    }
    return result
  }

  /// The number of partitions in each of the 256 groups.
  var partitionsPerGroup: Int { groups[0].count }

  /// The rows whose key is `key`, ascending.
  ///
  /// - Complexity: O(1).
  func rows(_ key: Key) -> [Int32] {
    let (group, partition) = Self.position(of: key, partitions: groups[0].count)
    return groups[group][partition][key]?.array ?? []
  }
}

extension HashIndex {
  /// The number of rows whose key is `key`.
  ///
  /// - Complexity: O(1), without allocating.
  func rowCount(_ key: Key) -> Int {
    let (group, partition) = Self.position(of: key, partitions: groups[0].count)
    return groups[group][partition][key]?.count ?? 0
  }

  /// Calls `body` with each row whose key is `key`, ascending, without allocating.
  func forEachRow(_ key: Key, _ body: (Int32) -> Void) {
    let (group, partition) = Self.position(of: key, partitions: groups[0].count)
    switch groups[group][partition][key] {
    case .one(let row): body(row)
    case .many(let rows): rows.forEach(body)
    case nil: break
    }
  }
}

extension HashIndex.Rows {
  /// The number of rows.
  var count: Int {
    switch self {
    case .one: 1
    case .many(let rows): rows.count
    }
  }

  /// Adds `row`, keeping the rows ascending.
  mutating func insert(_ row: Int32) {
    switch self {
    case .one(let only):
      self = only < row ? .many([only, row]) : only == row ? self : .many([row, only])
    case .many(var list):
      if list.isEmpty {
        self = .one(row)
        return
      }
      list.insert(row, at: list.insertionPoint(row))
      self = .many(list)
    }
  }

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
