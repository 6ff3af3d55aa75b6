/// The last few values found by key, compared with `==` alone: a front for a dictionary whose
/// keys are long texts, so that a lookup repeated save after save (the same shape of
/// statement) costs a comparison, which stops at the first differing byte or at the length,
/// rather than hashing every byte of the text.
///
/// It holds no more than the dictionary behind it says: its owner removes every entry when the
/// dictionary loses entries.
struct RecentLookups<Key: Equatable, Value> {
  /// The entries, the latest last.
  private var entries: [(key: Key, value: Value)] = []
  /// The most entries kept; the oldest goes first.
  let capacity: Int

  init(capacity: Int = 8) {
    self.capacity = capacity
  }

  /// The value remembered for `key`, or `nil`.
  subscript(key: Key) -> Value? {
    for entry in entries.reversed() where entry.key == key { return entry.value }
    return nil
  }

  /// Remembers `value` for `key` (which it does not hold yet), dropping the oldest entry when
  /// full.
  mutating func remember(_ key: Key, _ value: Value) {
    if entries.count >= capacity { entries.removeFirst() }
    entries.append((key, value))
  }

  /// Forgets every entry.
  mutating func removeAll() { entries.removeAll() }
}
