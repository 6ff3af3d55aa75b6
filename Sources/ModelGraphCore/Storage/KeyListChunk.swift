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

  /// The keys some row's list holds.
  var liveKeys: Int { used - garbage }

  /// A chunk whose rows all hold the empty list, with room for `reserving` keys.
  init(reserving: Int = 0) {
    spans = .allocate(capacity: Self.capacity)
    spans.initialize(repeating: KeySpan(start: 0, count: 0), count: Self.capacity)
    arenaCapacity = reserving
    keys = .allocate(capacity: max(reserving, 1))
    used = 0
    garbage = 0
  }

  deinit {
    spans.deallocate()
    keys.deallocate()
  }

  /// A copy holding the same lists, compacted (no garbage), with room for a few more keys
  /// (``cloneSlack(_:)``): a clone is made to be written, and an arena without room would be
  /// copied again, at twice the size, by that very write.
  ///
  /// - Parameter spare: Whether to leave that room; a copy made only to be kept (packing a
  ///   bulk insert's chunks) leaves none.
  func clone(spare: Bool = true) -> KeyListChunk {
    let live = used - garbage
    let copy = KeyListChunk(reserving: live + (spare ? Self.cloneSlack(live) : 0))
    copy.fill(from: self)
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

  /// Makes `newKeys` the list of the row at `offset`.
  func set(_ newKeys: UnsafeBufferPointer<ObjectKey>, at offset: Int) {
    let span = spans[offset]
    let oldCount = Int(span.count)
    if newKeys.count <= oldCount {
      // Shrinking or same size: in place; what is left over becomes garbage.
      if let base = newKeys.baseAddress, !newKeys.isEmpty {
        (keys + Int(span.start)).update(from: base, count: newKeys.count)
      }
      spans[offset].count = UInt32(newKeys.count)
      if newKeys.isEmpty { spans[offset].start = 0 }
      garbage += oldCount - newKeys.count
    } else if oldCount > 0 && Int(span.start) + oldCount == used {
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
    compactIfWasteful()
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

  /// Adds `key` at the end of the list of the row at `offset`.
  func append(_ key: ObjectKey, at offset: Int) {
    let span = spans[offset]
    let count = Int(span.count)
    if count > 0 && Int(span.start) + count == used {
      reserve(used + 1)
      (keys + used).initialize(to: key)
      used += 1
      spans[offset].count += 1
      return
    }
    reserve(used + count + 1)
    (keys + used).initialize(from: keys + Int(span.start), count: count)
    (keys + used + count).initialize(to: key)
    spans[offset] = KeySpan(start: UInt32(used), count: UInt32(count + 1))
    used += count + 1
    garbage += count
    compactIfWasteful()
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

  /// Copies every list of `other` into this empty chunk, leaving no garbage: the arena as it is
  /// when it has none, else row by row, densely.
  private func fill(from other: KeyListChunk) {
    reserve(other.used - other.garbage)
    if other.garbage == 0 {
      // No garbage to drop: the spans and the arena are copied as they are, in two blocks.
      spans.update(from: other.spans, count: Self.capacity)
      keys.initialize(from: other.keys, count: other.used)
      used = other.used
      return
    }
    for offset in 0..<Self.capacity {
      let span = other.spans[offset]
      guard span.count > 0 else { continue }
      (keys + used).initialize(from: other.keys + Int(span.start), count: Int(span.count))
      spans[offset] = KeySpan(start: UInt32(used), count: span.count)
      used += Int(span.count)
    }
  }
}
