/// One table's entries of a hash index: the rows of each key, ascending.
///
/// The entries are split by the key's hash into partitions, two levels deep (256 groups of a
/// power-of-two number of partitions each, about 64 keys a partition). A partition is a flat
/// array of its keys' entries in the order of their hashes, searched from where an even spread
/// of hashes puts the key's: carrying it
/// to a newer version copies one small array, with no hashing again and no table to grow.
/// An index is immutable; the index of a newer table version is made by ``applying(_:)``,
/// which shares every partition the changes do not touch, so carrying an index forward costs
/// O(changes), not O(keys).
///
/// An entry is plain data when its key is (a number, a date, a `UUID`): a key with one row
/// holds it in the entry, and a key with more names a list kept beside the partition's
/// entries. So copying or freeing a partition of a unique attribute's index is a block copy
/// or a free, with no reference count per entry.
final class HashIndex<Key: ColumnValue>: @unchecked Sendable {
  // @unchecked Sendable: immutable after init.

  /// One key of a partition, with its rows.
  struct Entry {
    /// The bits of the key's hash above those that chose the partition; a partition's entries
    /// are ascending by it.
    var hash: UInt32
    /// The key's only row (not negative), or the bitwise complement of the position in the
    /// partition's ``Partition/lists`` of its rows (two or more).
    var rows: Int32
    var key: Key
  }

  /// A partition's entries, ascending by ``Entry/hash`` (keys of equal hash in any order), and
  /// the row lists of its keys with more than one row.
  struct Partition {
    var entries: [Entry] = []
    /// Each list ascending, of two rows or more; a list no entry names any more is empty,
    /// and is the one a key that gains a second row takes next.
    var lists: [[Int32]] = []
  }

  /// `groups[hash & 255][(hash >> 8) & (partitionsPerGroup - 1)]`.
  private let groups: [[Partition]]
  /// The number of entries.
  let count: Int
  /// `groups[0].count`, kept here so a lookup does not read the first group's header.
  private let partitions: Int

  private static var groupCount: Int { 256 }

  private init(groups: [[Partition]], count: Int) {
    self.groups = groups
    self.count = count
    partitions = groups[0].count
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

  /// The position of `key` in `entries` (a partition's) when it has an entry; else where its
  /// entry goes.
  ///
  /// The hashes of a partition's keys are spread evenly over `UInt32`, so the search starts
  /// where `hash` would sit in an even spread and widens from there by doubling steps before
  /// halving: an index much larger than the caches usually finds the entry in the cache line
  /// it reads first or the next, where halving from the middle read about four lines of a
  /// partition (each a miss, as the index is probed at random).
  ///
  /// - Complexity: O(log n) for n entries; O(1) expected.
  @inline(__always)
  private static func find(_ key: Key, hash: UInt32, in entries: [Entry])
    -> (index: Int, found: Bool)
  {
    entries.withUnsafeBufferPointer { entries in
      let count = entries.count
      var (low, high) = (0, count)
      if count > 8 {
        // `hash × count / 2³²` is below `count`.
        let guess = Int(truncatingIfNeeded: (UInt64(hash) &* UInt64(count)) &>> 32)
        var step = 1
        if entries[guess].hash < hash {
          // The first entry not below `hash` is past the guess.
          low = guess + 1
          var probe = guess + step
          while probe < count && entries[probe].hash < hash {
            low = probe + 1
            step &<<= 1
            probe = guess + step
          }
          high = min(probe, count)
        } else {
          // It is the guess or before it.
          high = guess
          var probe = guess - step
          while probe >= 0 && entries[probe].hash >= hash {
            high = probe
            step &<<= 1
            probe = guess - step
          }
          low = max(probe + 1, 0)
        }
      }
      while low < high {
        let middle = (low + high) / 2
        if entries[middle].hash < hash { low = middle + 1 } else { high = middle }
      }
      var index = low
      while index < count && entries[index].hash == hash {
        if isSameIndexKey(entries[index].key, key) { return (index, true) }
        index += 1
      }
      return (low, false)
    }
  }

  /// An index of `entries`, partitioned for `count` entries.
  ///
  /// The entries are counted per partition, placed in one array partition after partition
  /// (a counting sort), and each partition's run sorted as plain integers (the ordering hash
  /// above the entry's position): no list per partition grown by appends, and no comparison
  /// through a closure.
  private static func make(_ entries: [(key: Key, row: Int32)], count: Int) -> HashIndex {
    let partitions = partitionsPerGroup(for: count)
    let slotShift = partitions.trailingZeroBitCount
    // Each entry's slot (group, then partition), and its ordering hash above its position.
    var slots = [Int32](repeating: 0, count: entries.count)
    var sortKeys = [UInt64](repeating: 0, count: entries.count)
    var starts = [Int](repeating: 0, count: groupCount * partitions + 1)
    for index in entries.indices {
      let (group, partition, hash) = position(of: entries[index].key, partitions: partitions)
      let slot = group << slotShift | partition
      slots[index] = Int32(slot)
      sortKeys[index] = UInt64(hash) << 32 | UInt64(index)
      starts[slot + 1] += 1
    }
    for slot in 0..<groupCount * partitions { starts[slot + 1] += starts[slot] }
    var placed = [UInt64](repeating: 0, count: entries.count)
    var next = starts
    for index in entries.indices {
      let slot = Int(slots[index])
      placed[next[slot]] = sortKeys[index]
      next[slot] += 1
    }
    let groups = placed.withUnsafeMutableBufferPointer { placed in
      (0..<groupCount).map { group in
        (0..<partitions).map { partition -> Partition in
          let slot = group << slotShift | partition
          var run = UnsafeMutableBufferPointer(rebasing: placed[starts[slot]..<starts[slot + 1]])
          run.sort()
          return Self.partition(of: run, entries: entries)
        }
      }
    }
    return HashIndex(groups: groups, count: count)
  }

  /// The partition of the entries `run` names (each its ordering hash above its position in
  /// `entries`, ascending): one entry per key, the rows of a key ascending.
  private static func partition(
    of run: UnsafeMutableBufferPointer<UInt64>, entries: [(key: Key, row: Int32)]
  ) -> Partition {
    var partition = Partition()
    partition.entries.reserveCapacity(run.count)
    // Entries of keys with the current hash start at `runStart`.
    var runStart = 0
    for sortKey in run {
      let (key, row) = entries[Int(truncatingIfNeeded: sortKey & 0xFFFF_FFFF)]
      let hash = UInt32(truncatingIfNeeded: sortKey >> 32)
      if let last = partition.entries.last, last.hash != hash { runStart = partition.entries.count }
      var index = runStart
      while index < partition.entries.count && !isSameIndexKey(partition.entries[index].key, key) {
        index += 1
      }
      if index < partition.entries.count {
        partition.insert(row, at: index)
      } else {
        partition.entries.append(Entry(hash: hash, rows: row, key: key))
      }
    }
    return partition
  }

  /// The index of the live rows of `column` in `stamps`.
  ///
  /// - Complexity: O(n) for n live rows (and a sort of each partition's).
  static func build(column: Column<Key>, stamps: Column<UInt32>) -> HashIndex {
    var entries: [(key: Key, row: Int32)] = []
    entries.reserveCapacity(stamps.count)
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
    let partitions = self.partitions
    if newCount > 4 * partitions * Self.groupCount * 64 && partitions < 1 << 12 {
      return repartitioned(applying: delta, count: newCount)
    }
    var groups = groups
    for (key, row) in delta.removed {
      let (group, partition, hash) = Self.position(of: key, partitions: partitions)
      let (index, found) = Self.find(key, hash: hash, in: groups[group][partition].entries)
      guard found else { continue }
      groups[group][partition].remove(row, at: index)
    }
    for (key, row) in delta.added {
      let (group, partition, hash) = Self.position(of: key, partitions: partitions)
      let (index, found) = Self.find(key, hash: hash, in: groups[group][partition].entries)
      if found {
        groups[group][partition].insert(row, at: index)
      } else {
        groups[group][partition].entries.insert(Entry(hash: hash, rows: row, key: key), at: index)
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
        for index in partition.entries.indices {
          let key = partition.entries[index].key
          partition.forEachRow(at: index) { row in
            if !removed.contains(RemovedEntry(key: key, row: row)) { entries.append((key, row)) }
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
        for index in partition.entries.indices {
          result[partition.entries[index].key] = partition.rows(at: index)
        }
      }
    }
    return result
  }

  /// Whether every partition is ascending by hash and names each key once, each key's rows are
  /// ascending, each list is named once and holds two rows or more (or none, unnamed), and
  /// `count` is the number of rows (for tests).
  var isWellFormed: Bool {
    var rows = 0
    for group in groups {
      for partition in group {
        var named = Set<Int>()
        for index in partition.entries.indices {
          let entry = partition.entries[index]
          let held = partition.rows(at: index)
          rows += held.count
          if entry.rows < 0 && !named.insert(Int(~entry.rows)).inserted { return false }
          if held.isEmpty || zip(held, held.dropFirst()).contains(where: { $0 >= $1 }) {
            return false
          }
          if index > 0 && partition.entries[index - 1].hash > entry.hash { return false }
          let same = partition.entries[..<index].filter { isSameIndexKey($0.key, entry.key) }
          if !same.isEmpty { return false }
        }
        for (position, list) in partition.lists.enumerated()
        where named.contains(position) ? list.count < 2 : !list.isEmpty {
          return false
        }
      }
    }
    return rows == count
  }

  /// The number of partitions in each of the 256 groups.
  var partitionsPerGroup: Int { partitions }

  /// The rows whose key is `key`, ascending.
  ///
  /// - Complexity: O(log partition size).
  func rows(_ key: Key) -> [Int32] {
    guard let (group, partition, index) = locate(key) else { return [] }
    return groups[group][partition].rows(at: index)
  }

  /// Where the entry of `key` is, if it has rows; nowhere for a NaN, which equals nothing.
  @inline(__always)
  private func locate(_ key: Key) -> (group: Int, partition: Int, index: Int)? {
    guard key == key else { return nil }
    let (group, partition, hash) = Self.position(of: key, partitions: partitions)
    let (index, found) = Self.find(key, hash: hash, in: groups[group][partition].entries)
    return found ? (group, partition, index) : nil
  }

  /// The number of rows whose key is `key`.
  ///
  /// - Complexity: O(log partition size), without allocating.
  func rowCount(_ key: Key) -> Int {
    guard let (group, partition, index) = locate(key) else { return 0 }
    return groups[group][partition].rowCount(at: index)
  }

  /// Calls `body` with each row whose key is `key`, ascending, without allocating.
  func forEachRow(_ key: Key, _ body: (Int32) -> Void) {
    guard let (group, partition, index) = locate(key) else { return }
    groups[group][partition].forEachRow(at: index, body)
  }
}

extension HashIndex.Partition {
  /// The rows of the entry at `index`, ascending.
  func rows(at index: Int) -> [Int32] {
    let rows = entries[index].rows
    return rows >= 0 ? [rows] : lists[Int(~rows)]
  }

  /// The number of rows of the entry at `index`.
  func rowCount(at index: Int) -> Int {
    let rows = entries[index].rows
    return rows >= 0 ? 1 : lists[Int(~rows)].count
  }

  /// Calls `body` with each row of the entry at `index`, ascending.
  func forEachRow(at index: Int, _ body: (Int32) -> Void) {
    let rows = entries[index].rows
    if rows >= 0 {
      body(rows)
    } else {
      lists[Int(~rows)].forEach(body)
    }
  }

  /// Adds `row` to the rows of the entry at `index`, keeping them ascending (a row held
  /// already stays once).
  mutating func insert(_ row: Int32, at index: Int) {
    let rows = entries[index].rows
    if rows >= 0 {
      guard rows != row else { return }
      let list = rows < row ? [rows, row] : [row, rows]
      let position: Int
      if let free = lists.firstIndex(where: \.isEmpty) {
        lists[free] = list
        position = free
      } else {
        lists.append(list)
        position = lists.count - 1
      }
      entries[index].rows = ~Int32(position)
    } else {
      let position = Int(~rows)
      let at = lists[position].insertionPoint(row)
      guard at == lists[position].count || lists[position][at] != row else { return }
      lists[position].insert(row, at: at)
    }
  }

  /// Removes `row` from the rows of the entry at `index`, and the entry with its last row.
  mutating func remove(_ row: Int32, at index: Int) {
    let rows = entries[index].rows
    if rows >= 0 {
      if rows == row { entries.remove(at: index) }
      return
    }
    let position = Int(~rows)
    guard let at = lists[position].binarySearch(row) else { return }
    lists[position].remove(at: at)
    if lists[position].count == 1 {
      entries[index].rows = lists[position][0]
      lists[position] = []
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
