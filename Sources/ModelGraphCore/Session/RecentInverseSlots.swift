/// The last four inverse slots a session looked up (``Session/inverseSlot(ofSlot:owner:target:)``),
/// by their cache key: a lookup compares four integers instead of hashing one.
struct RecentInverseSlots {
  private var keys: (Int, Int, Int, Int) = (-1, -1, -1, -1)
  private var slots: (Int, Int, Int, Int) = (0, 0, 0, 0)
  private var next = 0

  /// The slot remembered for `key` (-1: no inverse), or `nil`.
  func slot(for key: Int) -> Int? {
    if keys.0 == key { return slots.0 }
    if keys.1 == key { return slots.1 }
    if keys.2 == key { return slots.2 }
    if keys.3 == key { return slots.3 }
    return nil
  }

  /// Remembers `slot` for `key`, in place of the oldest.
  mutating func remember(_ slot: Int, for key: Int) {
    switch next {
    case 0: (keys.0, slots.0) = (key, slot)
    case 1: (keys.1, slots.1) = (key, slot)
    case 2: (keys.2, slots.2) = (key, slot)
    default: (keys.3, slots.3) = (key, slot)
    }
    next = (next + 1) & 3
  }
}
