/// Where one row's keys lie in its chunk's arena.
struct KeySpan: Sendable {
  var start: UInt32
  var count: UInt32
}

/// The to-many values of `1 << AnyColumn.chunkShift` rows: a span per row into one arena of
/// keys, so a row's list costs no allocation of its own.
///
/// A row whose list grows moves to the arena's end (in place when it is already last); the
/// keys it leaves behind are garbage, compacted away once they are more than half the arena.
/// A chunk is the unit of copy-on-write of a ``KeyListColumn``.
///
/// A shared chunk can take the lists of appended rows without a copy, as a ``ColumnChunk``
/// can: its ``ChunkClaim`` says from which row on nobody reads it, and one column at a time may
/// claim those rows (see ``KeyListColumn``). The claimer writes only what no other holder
/// reads: the spans of its claimed rows (past every other holder's count) and the arena past
/// ``used`` (past every key another holder's span covers). It never moves the arena
/// (`reserve(_:)`) nor compacts it, which would free or rewrite memory other holders read;
/// a write that needs either copies the chunk instead. ``used`` and ``garbage`` belong to
/// whoever may write: the owner alone, or the claimer (which read them after taking the claim,
/// and gives them back with it). Other holders read only their rows' spans and ``keys``.
final class KeyListChunk {
  static var capacity: Int { 1 << AnyColumn.chunkShift }
  /// Compaction waits until this many keys are garbage, so small chunks never compact.
  private static var minimumGarbage: Int { 64 }

  /// One span per row; an empty list is `(0, 0)`.
  let spans: UnsafeMutablePointer<KeySpan>
  /// The arena: `used` keys initialized, room for `arenaCapacity`.
  private(set) var keys: UnsafeMutablePointer<ObjectKey>
  private(set) var arenaCapacity: Int
  private(set) var used: Int
  /// Keys in `0..<used` no span covers.
  private(set) var garbage: Int
  /// The first row that may be claimed for appending in place; `nil` until the chunk is first
  /// shared (set by its owner alone, before any other holder sees the chunk).
  private var claimState: ChunkClaim?

  /// The keys some row's list holds.
  var liveKeys: Int { used - garbage }

  /// A chunk whose rows all hold the empty list, with room for `reserving` keys.
  convenience init(reserving: Int = 0) {
    self.init(unwrittenSpans: reserving)
    spans.initialize(repeating: KeySpan(start: 0, count: 0), count: Self.capacity)
  }

  /// A chunk with room for `reserving` keys whose spans the caller writes, every one, before
  /// any is read (``fill(from:rows:live:end:)``): a clone's spans are written once, not
  /// zeroed first.
  private init(unwrittenSpans reserving: Int) {
    spans = .allocate(capacity: Self.capacity)
    arenaCapacity = reserving
    keys = .allocate(capacity: max(reserving, 1))
    used = 0
    garbage = 0
  }

  deinit {
    spans.deallocate()
    keys.deallocate()
  }

  /// A copy holding the same lists in its first `prefix` rows, compacted (no garbage), every
  /// later row empty, with room for a few more keys (``cloneSlack(_:)``): a clone is made to be
  /// written, and an arena without room would be copied again, at twice the size, by that very
  /// write.
  ///
  /// Of a part of the chunk, reads only the spans of the first `prefix` rows and the keys they
  /// cover, never ``used``: the rows from `prefix` on (and the arena past their keys) may be
  /// another column's, which claimed them and writes them meanwhile. Of the whole chunk
  /// (`prefix` is its capacity), reads ``used`` and ``garbage``, as a copy of a chunk owned
  /// alone does: a claim starts past every other holder's rows, so no other column can hold
  /// one on a chunk whose every row the copier holds (the copier may hold it itself, and then
  /// the arena is its own to read). A whole chunk without garbage is copied in two blocks.
  /// - Parameters:
  ///   - prefix: The rows to copy: the copier's rows of the chunk.
  ///   - spare: Whether to leave that room; a copy made only to be kept (packing a bulk
  ///     insert's chunks) leaves none.
  ///   - room: Keys to leave room for on top, for the write that made the copy.
  func clone(prefix: Int = capacity, spare: Bool = true, room: Int = 0) -> KeyListChunk {
    let prefix = Swift.max(0, Swift.min(prefix, Self.capacity))
    var live = 0
    var end = 0
    if prefix == Self.capacity {
      // Every row: `used - garbage` keys, spanning the arena's first `used` when no garbage
      // lies among them (`fill` then copies two blocks, else row by row).
      live = used - garbage
      end = used
    } else {
      for offset in 0..<prefix {
        let span = spans[offset]
        live += Int(span.count)
        if span.count > 0 { end = Swift.max(end, Int(span.start) + Int(span.count)) }
      }
    }
    let copy = KeyListChunk(
      unwrittenSpans: live + (spare ? Self.cloneSlack(live) : 0) + room)
    copy.fill(from: self, rows: prefix, live: live, end: end)
    return copy
  }

  /// The spare keys a clone of a chunk holding `live` keys gets: a sixteenth, at least 16.
  static func cloneSlack(_ live: Int) -> Int { max(16, live / 16) }

  /// The keys of the row at `offset` in the chunk; valid until the chunk next changes.
  @inline(__always)
  func keys(at offset: Int) -> UnsafeBufferPointer<ObjectKey> {
    let span = spans[offset]
    return UnsafeBufferPointer(start: keys + Int(span.start), count: Int(span.count))
  }

  /// Makes `newKeys` the list of the row at `offset`, for the chunk's sole owner.
  func set(_ newKeys: UnsafeBufferPointer<ObjectKey>, at offset: Int) {
    _ = set(newKeys, at: offset, claimed: false)
  }

  /// Makes `newKeys` the list of the row at `offset`, a row the caller claimed (see
  /// ``claim(from:)``): without moving or compacting the arena.
  ///
  /// - Returns: Whether the list was written; `false` (nothing changed) when the arena lacks
  ///   room for it.
  func setClaimed(_ newKeys: UnsafeBufferPointer<ObjectKey>, at offset: Int) -> Bool {
    set(newKeys, at: offset, claimed: true)
  }

  /// Makes `newKeys` the list of the row at `offset`; under a claim (`claimed`), only when the
  /// arena has room, and without compacting it.
  private func set(_ newKeys: UnsafeBufferPointer<ObjectKey>, at offset: Int, claimed: Bool)
    -> Bool
  {
    let span = spans[offset]
    let oldCount = Int(span.count)
    let growsInPlace = oldCount > 0 && Int(span.start) + oldCount == used
    if claimed && newKeys.count > oldCount
      && (growsInPlace ? used - oldCount : used) + newKeys.count > arenaCapacity
    {
      return false
    }
    if newKeys.count <= oldCount {
      // Shrinking or same size: in place; what is left over becomes garbage.
      if let base = newKeys.baseAddress, !newKeys.isEmpty {
        (keys + Int(span.start)).update(from: base, count: newKeys.count)
      }
      spans[offset].count = UInt32(newKeys.count)
      if newKeys.isEmpty { spans[offset].start = 0 }
      garbage += oldCount - newKeys.count
    } else if growsInPlace {
      // The last list grows where it lies.
      reserve(used + newKeys.count - oldCount)
      (keys + Int(spans[offset].start)).update(from: newKeys.baseAddress!, count: newKeys.count)
      used += newKeys.count - oldCount
      spans[offset].count = UInt32(newKeys.count)
    } else {
      reserve(used + newKeys.count)
      (keys + used).initialize(from: newKeys.baseAddress!, count: newKeys.count)
      spans[offset] = KeySpan(start: UInt32(used), count: UInt32(newKeys.count))
      used += newKeys.count
      garbage += oldCount
    }
    if !claimed { compactIfWasteful() }
    return true
  }

  /// Fills this new chunk (every row empty, no key) with the lists of its first rows at once,
  /// for loading a file: `fill` gets the spans and an arena of `total` keys; it writes each
  /// row's span (back to back from key 0, empty lists as `(0, 0)`) and initializes every key,
  /// and returns whether it could. When it could not, every row is left empty.
  ///
  /// - Returns: What `fill` returned.
  func load(
    total: Int,
    fill: (_ spans: UnsafeMutablePointer<KeySpan>, _ keys: UnsafeMutablePointer<ObjectKey>) ->
      Bool
  ) -> Bool {
    precondition(used == 0 && garbage == 0 && total >= 0)
    reserve(total)
    guard fill(spans, keys) else {
      spans.update(repeating: KeySpan(start: 0, count: 0), count: Self.capacity)
      return false
    }
    used = total
    return true
  }

  /// Adds `key` at the end of the list of the row at `offset`, for the chunk's sole owner.
  func append(_ key: ObjectKey, at offset: Int) { _ = append(key, at: offset, claimed: false) }

  /// Adds `key` at the end of the list of the row at `offset`, a row the caller claimed:
  /// without moving or compacting the arena.
  ///
  /// - Returns: Whether the key was added; `false` (nothing changed) when the arena lacks room.
  func appendClaimed(_ key: ObjectKey, at offset: Int) -> Bool {
    append(key, at: offset, claimed: true)
  }

  /// Adds `key` at the end of the list of the row at `offset`; under a claim (`claimed`), only
  /// when the arena has room, and without compacting it.
  private func append(_ key: ObjectKey, at offset: Int, claimed: Bool) -> Bool {
    let span = spans[offset]
    let count = Int(span.count)
    if count > 0 && Int(span.start) + count == used {
      if claimed && used + 1 > arenaCapacity { return false }
      reserve(used + 1)
      (keys + used).initialize(to: key)
      used += 1
      spans[offset].count += 1
      return true
    }
    if claimed && used + count + 1 > arenaCapacity { return false }
    reserve(used + count + 1)
    (keys + used).initialize(from: keys + Int(span.start), count: count)
    (keys + used + count).initialize(to: key)
    spans[offset] = KeySpan(start: UInt32(used), count: UInt32(count + 1))
    used += count + 1
    garbage += count
    if !claimed { compactIfWasteful() }
    return true
  }

  /// Takes the rows from `start` on for the caller to write in place (``setClaimed(_:at:)``):
  /// succeeds when they are empty, nobody reads them and nobody else has taken them (the
  /// chunk's claim stands at `start`). The caller reads ``used`` and ``garbage`` only after
  /// this succeeds, and gives them back to ``abandonClaim(from:to:used:garbage:)`` if it
  /// drops what it wrote.
  ///
  /// - Complexity: O(1), one compare-and-exchange.
  func claim(from start: Int) -> Bool { claimState?.take(from: start) ?? false }

  /// Lets the rows from `start` on be claimed again: they are empty, nobody reads them, and the
  /// arena past ``used`` is free. The caller owns the chunk alone or claimed it.
  func release(from start: Int) {
    if let claimState {
      claimState.release(from: start)
    } else {
      // Owned alone: nobody else can see the claim yet.
      claimState = ChunkClaim(from: start)
    }
  }

  /// Gives up a claim on the rows from `start` on without keeping what the claimer wrote in
  /// them (below `end`): they are emptied, the arena gets back the ``used`` and ``garbage`` it
  /// had when the claim was taken (every key written since is the claimer's, read by nobody
  /// else), and the rows can be claimed again from `start`.
  func abandonClaim(from start: Int, to end: Int, used: Int, garbage: Int) {
    let end = Swift.min(end, Self.capacity)
    if end > start {
      (spans + start).update(repeating: KeySpan(start: 0, count: 0), count: end - start)
    }
    self.used = used
    self.garbage = garbage
    release(from: start)
  }

  /// Empties the rows from `start` on, for the last holder of a chunk that keeps it without a
  /// copy: they may hold what a version that is gone appended in place. Their keys become
  /// garbage.
  ///
  /// - Complexity: O(rows of the chunk).
  func clearRows(from start: Int) {
    for offset in Swift.max(start, 0)..<Self.capacity where spans[offset].count > 0 {
      garbage += Int(spans[offset].count)
      spans[offset] = KeySpan(start: 0, count: 0)
    }
  }

  /// Ensures room for `needed` keys, growing the arena geometrically.
  private func reserve(_ needed: Int) {
    guard needed > arenaCapacity else { return }
    let capacity = max(needed, arenaCapacity * 2, 16)
    let grown = UnsafeMutablePointer<ObjectKey>.allocate(capacity: capacity)
    grown.moveInitialize(from: keys, count: used)
    keys.deallocate()
    keys = grown
    arenaCapacity = capacity
  }

  /// Rewrites the arena without garbage once garbage is most of it.
  private func compactIfWasteful() {
    guard garbage >= Self.minimumGarbage && garbage * 2 > used else { return }
    let old = (keys: keys, spans: UnsafeMutablePointer<KeySpan>.allocate(capacity: Self.capacity))
    old.spans.initialize(from: spans, count: Self.capacity)
    defer { old.spans.deallocate() }
    keys = .allocate(capacity: max(used - garbage, 16))
    arenaCapacity = max(used - garbage, 16)
    used = 0
    garbage = 0
    for offset in 0..<Self.capacity {
      let span = old.spans[offset]
      guard span.count > 0 else { continue }
      (keys + used).initialize(from: old.keys + Int(span.start), count: Int(span.count))
      spans[offset].start = UInt32(used)
      used += Int(span.count)
    }
    old.keys.deallocate()
  }

  /// Copies the lists of the first `rows` rows of `other` into this empty chunk, whose spans
  /// are not written yet, leaving no garbage: the arena's first `end` keys as they are when
  /// those rows' spans tile them (they hold `live` keys, and span `0..<end`), else row by row,
  /// densely. Every later row gets the empty list.
  private func fill(from other: KeyListChunk, rows: Int, live: Int, end: Int) {
    reserve(live)
    (spans + rows).initialize(repeating: KeySpan(start: 0, count: 0), count: Self.capacity - rows)
    if live == end {
      // No garbage to drop: the spans and the arena are copied as they are, in two blocks.
      spans.initialize(from: other.spans, count: rows)
      keys.initialize(from: other.keys, count: end)
      used = end
      return
    }
    for offset in 0..<rows {
      let span = other.spans[offset]
      guard span.count > 0 else {
        spans[offset] = KeySpan(start: 0, count: 0)
        continue
      }
      (keys + used).initialize(from: other.keys + Int(span.start), count: Int(span.count))
      spans[offset] = KeySpan(start: UInt32(used), count: span.count)
      used += Int(span.count)
    }
  }
}
