/// One table's entries of a hash index: the rows of each key, ascending.
///
/// The entries are split by the key's hash into partitions, two levels deep (256 groups of a
/// power-of-two number of partitions each, about 64 keys a partition). A partition is a flat
/// array of its keys' entries in the order of their hashes, searched by halving: carrying it
/// to a newer version copies one small array, with no hashing again and no table to grow.
/// An index is immutable; the index of a newer table version is made by ``applying(_:)``,
/// which shares every partition the changes do not touch, so carrying an index forward costs
/// O(changes), not O(keys).
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

  /// One key of a partition, with its rows.
  struct Entry {
    /// The bits of the key's hash above those that chose the partition; a partition's entries
    /// are ascending by it.
    var hash: UInt32
    var key: Key
    var rows: Rows
  }

  /// A partition's entries, ascending by ``Entry/hash`` (keys of equal hash in any order).
  typealias Partition = [Entry]

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

  /// Where `key` lives: its group, its partition, and the hash bits that order a partition
  /// (bits 32 and up, above the at most 20 that choose the partition).
  @inline(__always)
  private static func position(of key: Key, partitions: Int)
    -> (group: Int, partition: Int, hash: UInt32)
  {
    let hash = key.hashValue
    return (
      hash & (groupCount - 1), (hash >> 8) & (partitions - 1),
      UInt32(truncatingIfNeeded: UInt(bitPattern: hash) >> 32)
    )
  }

  /// The position of `key` in `partition` when it has an entry; else where its entry goes.
  @inline(__always)
  private static func find(_ key: Key, hash: UInt32, in partition: Partition)
    -> (index: Int, found: Bool)
  {
    var low = 0
    var high = partition.count
    while low < high {
      let middle = (low + high) / 2
      if partition[middle].hash < hash { low = middle + 1 } else { high = middle }
    }
    var index = low
    while index < partition.count && partition[index].hash == hash {
      if isSameIndexKey(partition[index].key, key) { return (index, true) }
      index += 1
    }
    return (low, false)
  }

  /// An index of `entries` (rows ascending per key), partitioned for `count` entries.
  private static func make(_ entries: [(key: Key, row: Int32)], count: Int) -> HashIndex {
    let partitions = partitionsPerGroup(for: count)
    // Each partition's entries in the order given, then ordered by hash (rows ascending
    // within a hash, as given), then joined per key.
    var lists = [[[(hash: UInt32, key: Key, row: Int32)]]](
      repeating: [[(hash: UInt32, key: Key, row: Int32)]](repeating: [], count: partitions),
      count: groupCount)
    for (key, row) in entries {
      let (group, partition, hash) = position(of: key, partitions: partitions)
      lists[group][partition].append((hash, key, row))
    }
    let groups = lists.map { group in
      group.map { list -> Partition in
        var list = list
        list.sort { ($0.hash, $0.row) < ($1.hash, $1.row) }
        var partition: Partition = []
        partition.reserveCapacity(list.count)
        var runStart = 0
        for item in list {
          // Entries of keys with this hash so far start at `runStart`.
          if let last = partition.last, last.hash != item.hash { runStart = partition.count }
          if let same = partition[runStart...].firstIndex(where: {
            isSameIndexKey($0.key, item.key)
          }) {
            partition[same].rows.append(item.row)
          } else {
            partition.append(Entry(hash: item.hash, key: item.key, rows: .one(item.row)))
          }
        }
        return partition
      }
    }
    return HashIndex(groups: groups, count: count)
  }

  /// The index of the live rows of `column` in `stamps`.
  ///
  /// - Complexity: O(n) for n live rows (and a sort of each partition's).
  static func build(column: Column<Key>, stamps: Column<UInt32>) -> HashIndex {
    var entries: [(key: Key, row: Int32)] = []
    column.forEachLiveValue(stamps: stamps) { entries.append(($0, $1)) }
    return make(entries, count: entries.count)
  }

  /// The index of `entries` (key, row), given in any order.
  ///
  /// - Complexity: O(n log n).
  static func build(entries: [(key: Key, row: Int32)]) -> HashIndex {
    make(entries, count: entries.count)
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
      let (group, partition, hash) = Self.position(of: key, partitions: partitions)
      let (index, found) = Self.find(key, hash: hash, in: groups[group][partition])
      guard found else { continue }
      switch groups[group][partition][index].rows {
      case .one(let only):
        if only == row { groups[group][partition].remove(at: index) }
      case .many(var list):
        guard let position = list.binarySearch(row) else { continue }
        list.remove(at: position)
        if list.isEmpty {
          groups[group][partition].remove(at: index)
        } else {
          groups[group][partition][index].rows = list.count == 1 ? .one(list[0]) : .many(list)
        }
      }
    }
    for (key, row) in delta.added {
      let (group, partition, hash) = Self.position(of: key, partitions: partitions)
      let (index, found) = Self.find(key, hash: hash, in: groups[group][partition])
      if found {
        groups[group][partition][index].rows.insert(row)
      } else {
        groups[group][partition].insert(
          Entry(hash: hash, key: key, rows: .one(row)), at: index)
      }
    }
    return HashIndex(groups: groups, count: newCount)
  }

  private func repartitioned(applying delta: IndexDelta<Key>, count: Int) -> HashIndex {
    let removed = Set(delta.removed.map { RemovedEntry(key: $0.key, row: $0.row) })
    var entries: [(key: Key, row: Int32)] = []
    entries.reserveCapacity(count)
    for group in groups {
      for partition in group {
        for entry in partition {
          for row in entry.rows.array
          where !removed.contains(RemovedEntry(key: entry.key, row: row)) {
            entries.append((entry.key, row))
          }
        }
      }
    }
    entries += delta.added
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
        for entry in partition { result[entry.key] = entry.rows.array }
      }
    }
    return result
  }

  /// Whether every partition is ascending by hash and names each key once, and `count` is
  /// the number of rows (for tests).
  var isWellFormed: Bool {
    var rows = 0
    for group in groups {
      for partition in group {
        for index in partition.indices {
          rows += partition[index].rows.count
          if index > 0 && partition[index - 1].hash > partition[index].hash { return false }
          let same = partition[..<index].filter {
            isSameIndexKey($0.key, partition[index].key)
          }
          if !same.isEmpty { return false }
        }
      }
    }
    return rows == count
  }

  /// The number of partitions in each of the 256 groups.
  var partitionsPerGroup: Int { groups[0].count }

  /// The rows whose key is `key`, ascending.
  ///
  /// - Complexity: O(log partition size).
  func rows(_ key: Key) -> [Int32] {
    entry(key)?.rows.array ?? []
  }

  /// The entry of `key`, if it has rows; none for a NaN, which equals nothing.
  @inline(__always)
  private func entry(_ key: Key) -> Entry? {
    guard key == key else { return nil }
    let (group, partition, hash) = Self.position(of: key, partitions: groups[0].count)
    let list = groups[group][partition]
    let (index, found) = Self.find(key, hash: hash, in: list)
    return found ? list[index] : nil
  }
}

extension HashIndex {
  /// The number of rows whose key is `key`.
  ///
  /// - Complexity: O(log partition size), without allocating.
  func rowCount(_ key: Key) -> Int {
    entry(key)?.rows.count ?? 0
  }

  /// Calls `body` with each row whose key is `key`, ascending, without allocating.
  func forEachRow(_ key: Key, _ body: (Int32) -> Void) {
    switch entry(key)?.rows {
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
      self = .one(0)  // lets `list` be the array's only reference, changed in place
      list.insert(row, at: list.insertionPoint(row))
      self = .many(list)
    }
  }

  /// Adds `row`, which is above every row held.
  mutating func append(_ row: Int32) {
    switch self {
    case .one(let only): self = .many([only, row])
    case .many(var list):
      self = .one(0)  // lets `list` be the array's only reference, appended in place
      list.append(row)
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
