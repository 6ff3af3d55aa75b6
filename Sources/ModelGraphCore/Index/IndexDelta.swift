/// The index entries two versions of a table disagree on, for one attribute.
///
/// Found from the rows the newer version was written in, when they are known (the save's
/// ``TableChangeNote``, a session's changes); otherwise by comparing the versions chunk by
/// chunk: a chunk whose stamps and values the two versions share (copy-on-write) cannot differ
/// and is skipped, so the cost is proportional to the chunks written between the versions,
/// not to the table.
struct IndexDelta<Key: ColumnValue> {
  /// Entries of the old version that the new one no longer has: (key, row), by row.
  var removed: [(key: Key, row: Int32)] = []
  /// Entries of the new version that the old one did not have: (key, row), by row.
  var added: [(key: Key, row: Int32)] = []

  /// No differences.
  init() {}

  /// Whether the versions agree.
  var isEmpty: Bool { removed.isEmpty && added.isEmpty }

  /// The entries that differ between `old` and `new` (two versions of one table) for the
  /// attribute at `slot`.
  ///
  /// - Complexity: O(rows written) when `new` was published over `old` by saves whose
  ///   ``Table/changeNote`` reaches back to `old`; otherwise O(chunks / 64 + chunks of the
  ///   groups written + chunk size × chunks written between the versions).
  init(from old: Table, to new: Table, slot: Int) {
    if let rows = new.changeNote?.rows(since: old.serial) {
      self.init(from: old, to: new, slot: slot, rows: rows)
    } else {
      self.init(comparingChunksOf: old, to: new, slot: slot)
    }
  }

  /// The entries that differ between `old` and `new` for the attribute at `slot`, where only
  /// `rows` (ascending, without repeats) may differ between the two versions.
  ///
  /// Debug builds check the promise against a comparison of the chunks.
  /// - Complexity: O(rows).
  init(from old: Table, to new: Table, slot: Int, rows: [Int32]) {
    let oldColumn = old.column(slot, as: Key.self)
    let newColumn = new.column(slot, as: Key.self)
    for row in rows { compare(Int(row), old, oldColumn, new, newColumn) }
    assert(
      sameEntries(as: IndexDelta(comparingChunksOf: old, to: new, slot: slot)),
      "a table version differs from the one it was derived from outside the rows written")
  }

  /// The entries that differ between `old` and `new` for the attribute at `slot`, found by
  /// comparing every chunk the two versions do not share.
  ///
  /// - Complexity: O(chunks / 16 + chunks of the groups written + chunk size × chunks written
  ///   between the versions).
  init(comparingChunksOf old: Table, to new: Table, slot: Int) {
    let oldColumn = old.column(slot, as: Key.self)
    let newColumn = new.column(slot, as: Key.self)
    let chunks = max(old.stamps.chunkCount, new.stamps.chunkCount)
    let perGroup = ChunkDirectory.chunksPerGroup
    // Rows from here on may differ within a shared chunk: the version holding more rows may
    // have appended them in place (a claim, see `Column.grow(to:)`).
    let shared = min(old.rowCount, new.rowCount)
    var chunk = 0
    while chunk < chunks {
      let start = chunk << AnyColumn.chunkShift
      // A whole group of chunks both versions share, stamps and values, below both counts
      // cannot differ.
      if chunk % perGroup == 0, start + (perGroup << AnyColumn.chunkShift) <= shared,
        old.stamps.sharesChunkGroup(chunk / perGroup, with: new.stamps),
        oldColumn.sharesChunkGroup(chunk / perGroup, with: newColumn)
      {
        chunk += perGroup
        continue
      }
      defer { chunk += 1 }
      let end = start + (1 << AnyColumn.chunkShift)
      let inOld = chunk < old.stamps.chunkCount && chunk < oldColumn.chunkCount
      let inNew = chunk < new.stamps.chunkCount && chunk < newColumn.chunkCount
      if inOld && inNew && old.stamps.chunkStorage(chunk) == new.stamps.chunkStorage(chunk)
        && oldColumn.chunkStorage(chunk) == newColumn.chunkStorage(chunk)
      {
        for row in max(start, shared)..<max(end, shared) {
          compare(row, old, oldColumn, new, newColumn)
        }
        continue
      }
      for row in start..<end { compare(row, old, oldColumn, new, newColumn) }
    }
  }

  /// Adds the entries of `row` that differ between the two versions.
  @inline(__always)
  private mutating func compare(
    _ row: Int, _ old: Table, _ oldColumn: Column<Key>, _ new: Table, _ newColumn: Column<Key>
  ) {
    let oldStamp = row < old.rowCount ? old.stamps[row] : 0
    let newStamp = row < new.rowCount ? new.stamps[row] : 0
    let wasAlive = oldStamp & 1 == 1
    let isAlive = newStamp & 1 == 1
    guard wasAlive || isAlive else { return }
    let oldKey = wasAlive ? oldColumn[row] : nil
    let newKey = isAlive ? newColumn[row] : nil
    if oldStamp == newStamp, isSameIndexKey(oldKey, newKey) { return }
    if let oldKey { removed.append((oldKey, Int32(row))) }
    if let newKey { added.append((newKey, Int32(row))) }
  }

  /// Whether `other` holds the same entries, in any order (for debug checks).
  func sameEntries(as other: IndexDelta) -> Bool {
    func sorted(_ entries: [(key: Key, row: Int32)]) -> [Int32] { entries.map(\.row).sorted() }
    guard sorted(removed) == sorted(other.removed), sorted(added) == sorted(other.added) else {
      return false
    }
    let mine = Dictionary(added.map { ($0.row, $0.key) }, uniquingKeysWith: { first, _ in first })
    return other.added.allSatisfy { entry in
      mine[entry.row].map { isSameIndexKey($0, entry.key) } == true
    }
  }
}

extension IndexDelta {
  /// The entries that differ between the version before `self` and the version after `next`,
  /// where `next` starts at the version `self` ends at.
  ///
  /// The base entry of a row either delta names is removed; the row's entry after `next` (or
  /// after `self`, when `next` does not name the row) is added. Each list of the result is
  /// ordered by row.
  /// - Complexity: O(m) for m entries in the two deltas (their lists are ordered by row).
  func followed(by next: IndexDelta) -> IndexDelta {
    if next.isEmpty { return self }
    if isEmpty { return next }
    if let appended = appending(next) { return appended }
    let removed = Self.byRow(removed)
    let added = Self.byRow(added)
    let nextRemoved = Self.byRow(next.removed)
    let nextAdded = Self.byRow(next.added)
    var result = IndexDelta()
    // What `next` removes from rows `self` did not name is a base entry; from the others,
    // an entry `self` added, or one `self` removed already.
    var named = (removed: 0, added: 0)
    let newlyRemoved = nextRemoved.filter { entry in
      !Self.advance(&named.removed, in: removed, to: entry.row)
        && !Self.advance(&named.added, in: added, to: entry.row)
    }
    result.removed = Self.merged(removed, newlyRemoved)
    var renamed = (removed: 0, added: 0)
    let kept = added.filter { entry in
      !Self.advance(&renamed.removed, in: nextRemoved, to: entry.row)
        && !Self.advance(&renamed.added, in: nextAdded, to: entry.row)
    }
    result.added = Self.merged(kept, nextAdded)
    return result
  }

  /// ``followed(by:)`` when every row `next` names lies past every row this delta names (a
  /// save that appended rows, the common step): each list is this one's followed by
  /// `next`'s, a copy of each without comparing rows; `nil` otherwise.
  ///
  /// - Complexity: O(m) for m entries in the two deltas: a check of their order and a copy,
  ///   without an entry appended one by one.
  private func appending(_ next: IndexDelta) -> IndexDelta? {
    let last = max(removed.last?.row ?? .min, added.last?.row ?? .min)
    let first = min(next.removed.first?.row ?? .max, next.added.first?.row ?? .max)
    guard last < first, Self.isByRow(next.removed), Self.isByRow(next.added),
      Self.isByRow(removed), Self.isByRow(added)
    else { return nil }
    var result = IndexDelta()
    result.removed = removed + next.removed
    result.added = added + next.added
    return result
  }

  /// Whether `entries` is ordered by row.
  ///
  /// - Complexity: O(m).
  private static func isByRow(_ entries: [(key: Key, row: Int32)]) -> Bool {
    !entries.indices.dropFirst().contains { entries[$0 - 1].row > entries[$0].row }
  }

  /// `entries` ordered by row (as every delta's own lists are; sorted here otherwise).
  ///
  /// - Complexity: O(m) when ordered.
  private static func byRow(_ entries: [(key: Key, row: Int32)]) -> [(key: Key, row: Int32)] {
    for index in entries.indices.dropFirst() where entries[index - 1].row > entries[index].row {
      return entries.sorted { $0.row < $1.row }
    }
    return entries
  }

  /// Whether `entries` (ordered by row) has an entry of `row`, moving `position` past the
  /// entries of rows below it: called with ascending rows, a walk of O(m) in all.
  @inline(__always)
  private static func advance(
    _ position: inout Int, in entries: [(key: Key, row: Int32)], to row: Int32
  ) -> Bool {
    while position < entries.count, entries[position].row < row { position += 1 }
    return position < entries.count && entries[position].row == row
  }

  /// The entries of `first` and `second` (each ordered by row, no row in both), ordered by
  /// row.
  ///
  /// - Complexity: O(m).
  private static func merged(
    _ first: [(key: Key, row: Int32)], _ second: [(key: Key, row: Int32)]
  ) -> [(key: Key, row: Int32)] {
    if second.isEmpty { return first }
    if first.isEmpty { return second }
    if first[first.count - 1].row < second[0].row { return first + second }
    var result: [(key: Key, row: Int32)] = []
    result.reserveCapacity(first.count + second.count)
    var left = 0
    var right = 0
    while left < first.count, right < second.count {
      if first[left].row < second[right].row {
        result.append(first[left])
        left += 1
      } else {
        result.append(second[right])
        right += 1
      }
    }
    result += first[left...]
    result += second[right...]
    return result
  }
}
