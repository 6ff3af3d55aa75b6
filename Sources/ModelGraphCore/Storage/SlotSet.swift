/// A small set of attribute slots, as a bit mask with an overflow flag for wide entities.
public struct SlotSet: Sendable, Hashable {
  private var bits: UInt64 = 0
  private var overflow = false

  /// The empty set.
  public init() {}

  /// Adds `slot`; a slot of 64 or more marks every slot from 64 on.
  public mutating func insert(_ slot: Int) {
    if slot < 64 { bits |= 1 << UInt64(slot) } else { overflow = true }
  }

  /// Removes `slot` (slots of 64 or more are removed only all together).
  public mutating func remove(_ slot: Int) {
    if slot < 64 { bits &= ~(1 << UInt64(slot)) }
  }

  /// Whether `slot` is in the set (any slot of 64 or more is, once one was inserted).
  public func contains(_ slot: Int) -> Bool {
    slot < 64 ? bits & (1 << UInt64(slot)) != 0 : overflow
  }

  /// Whether no slot is in the set.
  public var isEmpty: Bool { bits == 0 && !overflow }

  /// Adds every slot of `other`.
  public mutating func formUnion(_ other: SlotSet) {
    bits |= other.bits
    overflow = overflow || other.overflow
  }

  /// Calls `body` with each slot in the set that is below `count`, ascending, without
  /// allocating.
  public func forEachSlot(below count: Int, _ body: (Int) throws -> Void) rethrows {
    var remaining = bits
    while remaining != 0 {
      let slot = remaining.trailingZeroBitCount
      if slot >= count { return }
      try body(slot)
      remaining &= remaining &- 1
    }
    if overflow {
      for slot in 64..<Swift.max(64, count) { try body(slot) }
    }
  }

  /// The number of slots in the set that are below `count`.
  public func count(below count: Int) -> Int {
    let low = count >= 64 ? bits : bits & ((1 << UInt64(Swift.max(count, 0))) &- 1)
    return low.nonzeroBitCount + (overflow ? Swift.max(count - 64, 0) : 0)
  }

  /// The slots in the set that are below `count`, ascending.
  public func slots(below count: Int) -> [Int] {
    (0..<count).filter { $0 < 64 ? bits & (1 << UInt64($0)) != 0 : overflow }
  }
}
