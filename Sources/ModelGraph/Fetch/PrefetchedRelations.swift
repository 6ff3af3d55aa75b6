import ModelGraphCore

/// The related objects the last prefetching fetch resolved, per owner and relationship, so
/// that reading a prefetched relationship looks nothing up again.
///
/// Owners are numbered in the order the fetch returned them; each owner keeps its number in
/// ``ModelObject/_prefetchIndex``. The prefetched relationships are numbered by their place in
/// the fetch's key paths (their position), and the lists of owner `i` sit at
/// `i * stride + position`, `stride` being the number of key paths: a prefetch of one
/// relationship keeps one list per owner, whatever the relationship's slot. A number is used
/// only after ``owners`` confirms it names the object, so a number left from an earlier
/// prefetch is harmless.
///
/// The lists hold for the context's view of relationships they were resolved on: the
/// session's base version and ``ModelContext/relationshipEpoch``, which every relationship
/// write, deletion and rollback in the context advances. A save or a refresh moves the base
/// version. Once either differs, reads go back to the tables.
///
/// The lists hold their objects, which hold the context: the context lets the prefetch go once
/// no owner is left that could read it (``ownerReleased(number:key:)``), so a context dropped
/// after a prefetching fetch is freed. An owner that is itself in a list (a tree of one class
/// prefetching its children) is not waited for: the lists keep it.
final class PrefetchedRelations {
  /// The session's base version the lists were resolved on.
  let version: UInt64
  /// ``ModelContext/relationshipEpoch`` when the lists were resolved.
  let epoch: UInt64
  /// The key of each owner, by number.
  let owners: [ObjectKey]
  /// The position of each relationship slot among the prefetched relationships, by slot;
  /// -1 for a slot not prefetched. The owners of one fetch are one class or its subclasses,
  /// which inherit their ancestors' slots, so one map serves every owner.
  let positions: [Int]
  /// The number of list places per owner: the number of prefetched relationships.
  let stride: Int
  /// The number of list places: `owners.count * stride`.
  let count: Int
  /// The related objects of each prefetched relationship, in order, at `i * stride +
  /// position` (`nil`: not resolved, for a relationship an owner's class lacks); they also
  /// keep the objects alive, so the context keeps their handles.
  ///
  /// Memory owned by this object rather than an array of optional arrays: storing a list and
  /// freeing them all is concrete code, where an array's element stores and its storage's
  /// deinit went through the runtime's generic value witnesses once per list.
  private let lists: UnsafeMutablePointer<[ModelObject]?>
  /// The owners' numbers by key, for a later prefetch that takes lists from this one
  /// (``number(of:)``): an open-addressing table of owner numbers (-1: empty), built the first
  /// time one is asked for.
  @exclusivity(unchecked) private var numbers: UnsafeMutablePointer<Int32>?
  /// `64 - log2(capacity of numbers)`.
  @exclusivity(unchecked) private var numberShift = 64
  /// Whether each owner's release is waited for (``countOwners(_:listsMayHoldOwners:)``).
  /// Without a dynamic exclusivity check, as every field the prefetch changes after it is
  /// built: each owner's release writes it, and a prefetch is used on its context's thread only.
  @exclusivity(unchecked) private var isCounted: [Bool] = []
  /// The owners waited for that are still alive.
  @exclusivity(unchecked) private(set) var liveOwners = 0

  /// A prefetch of `owners` with `stride` relationships each, every list not resolved yet
  /// (``setList(_:at:)`` fills them).
  init(version: UInt64, epoch: UInt64, owners: [ObjectKey], positions: [Int], stride: Int) {
    self.version = version
    self.epoch = epoch
    self.owners = owners
    self.positions = positions
    self.stride = stride
    count = owners.count &* stride
    lists = .allocate(capacity: count)
    lists.initialize(repeating: nil, count: count)
  }

  deinit {
    // One list at a time through concrete code (`deinitialize(count:)` would hand the whole
    // run to the runtime's generic array destruction).
    for index in 0..<count { _ = (lists + index).move() }
    lists.deallocate()
    numbers?.deallocate()
  }

  /// Sets the list at `place` (`owner * stride + position`) while the prefetch is being built.
  func setList(_ list: [ModelObject], at place: Int) {
    precondition(place >= 0 && place < count, "a list place within the prefetch")
    (lists + place).pointee = list
  }

  /// Gives owner `number` of this prefetch, while it is being built, the lists `earlier`
  /// resolved for the same object, if `earlier` resolved every relationship this prefetch
  /// resolves for it: `slots` are the owner's slot of each position (-1: not resolved). The
  /// caller checked that `earlier`'s lists still hold (``ModelContext/prefetchedRelated(_:slot:)``
  /// reads them under the same condition).
  ///
  /// - Returns: Whether the owner has all its lists; when not, the caller resolves them all.
  /// - Complexity: O(key paths), expected.
  func takeLists(
    of number: Int, from earlier: PrefetchedRelations, slots: UnsafeBufferPointer<Int>
  ) -> Bool {
    guard let old = earlier.number(of: owners[number]) else { return false }
    for (position, slot) in slots.enumerated() where slot >= 0 {
      guard let list = earlier.list(number: old, slot: slot) else { return false }
      setList(list, at: number &* stride &+ position)
    }
    return true
  }

  /// The list of relationship `slot` of owner `number`, if this prefetch resolved it.
  private func list(number: Int, slot: Int) -> [ModelObject]? {
    guard slot >= 0, slot < positions.count else { return nil }
    let position = positions[slot]
    guard position >= 0 else { return nil }
    return lists[number &* stride &+ position]
  }

  /// The number of the owner whose key is `key`, if it is one of this prefetch's owners.
  ///
  /// - Complexity: O(1) expected; the first call builds the table, O(owners).
  private func number(of key: ObjectKey) -> Int? {
    if numbers == nil { buildNumbers() }
    let table = numbers!
    let mask = (1 &<< (64 &- numberShift)) &- 1
    var index = Self.home(key, shift: numberShift)
    while true {
      let number = Int(table[index])
      if number < 0 { return nil }
      if owners[number] == key { return number }
      index = (index &+ 1) & mask
    }
  }

  /// Fills ``numbers``, at most half full.
  private func buildNumbers() {
    var capacity = 16
    var shift = 60
    while capacity < owners.count &* 2 {
      capacity &<<= 1
      shift &-= 1
    }
    let table = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
    table.initialize(repeating: -1, count: capacity)
    for (number, key) in owners.enumerated() {
      var index = Self.home(key, shift: shift)
      while table[index] >= 0 { index = (index &+ 1) & (capacity &- 1) }
      table[index] = Int32(truncatingIfNeeded: number)
    }
    numbers = table
    numberShift = shift
  }

  /// The first place of `key` in a table of `1 << (64 - shift)` places: a multiplicative hash
  /// of its entity, row and generation.
  @inline(__always)
  private static func home(_ key: ObjectKey, shift: Int) -> Int {
    let bits =
      (UInt64(key.row) | (UInt64(key.entity) &<< 32)) ^ (UInt64(key.generation) &<< 44)
    return Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) &>> UInt64(shift))
  }

  /// Counts the owners whose release the prefetch waits for, once its lists are filled:
  /// `results` are the fetched objects, in the order their numbers were given (those without
  /// a table skipped). An object met twice counts once; an owner that is in a list is not
  /// counted (the lists keep it alive, so waiting for it would keep the prefetch forever).
  /// The lists are read only when `listsMayHoldOwners` (``PrefetchLayout/listsMayHoldOwners(in:)``).
  ///
  /// - Complexity: O(owners), plus O(related objects) when the lists may hold owners.
  func countOwners<T: ModelObject>(_ results: [T], listsMayHoldOwners: Bool) {
    var counted = [Bool](repeating: false, count: owners.count)
    var number = 0
    for object in results where object._table != nil {
      counted[number] = Int(object._prefetchIndex) == number
      number &+= 1
    }
    if listsMayHoldOwners {
      for index in 0..<count {
        guard let list = lists[index] else { continue }
        for object in list {
          let owner = Int(object._prefetchIndex)
          if owner >= 0, owner < owners.count, owners[owner] == object._key {
            counted[owner] = false
          }
        }
      }
    }
    liveOwners = counted.reduce(0) { $1 ? $0 &+ 1 : $0 }
    isCounted = counted
  }

  /// Records that owner `number`, whose key is `key`, is being freed.
  ///
  /// - Returns: Whether no owner waited for is left: the prefetch can no longer be read.
  /// - Complexity: O(1).
  func ownerReleased(number: Int, key: ObjectKey) -> Bool {
    guard number < owners.count, owners[number] == key, isCounted[number] else { return false }
    isCounted[number] = false
    liveOwners &-= 1
    return liveOwners == 0
  }

  /// The list of relationship `slot` of `object`, if this prefetch resolved it.
  ///
  /// - Complexity: O(1).
  func list(of object: ModelObject, slot: Int) -> [ModelObject]? {
    let index = Int(object._prefetchIndex)
    guard index >= 0, index < owners.count, owners[index] == object._key,
      slot >= 0, slot < positions.count
    else { return nil }
    let position = positions[slot]
    guard position >= 0 else { return nil }
    return lists[index &* stride &+ position]
  }
}

extension ModelContext {
  /// The objects relationship `slot` of `object` holds, as the last prefetching fetch resolved
  /// them, while that resolution still holds; otherwise `nil`.
  ///
  /// The prefetch is read without taking a reference count: nothing the read runs can let
  /// it go.
  /// - Complexity: O(1): a few comparisons and an array read.
  @inline(__always)
  func prefetchedRelated(_ object: ModelObject, slot: Int) -> [ModelObject]? {
    guard let prefetched = prefetched.map(Unmanaged.passUnretained) else { return nil }
    return prefetched._withUnsafeGuaranteedRef {
      guard $0.epoch == relationshipEpoch, $0.version == session.baseNumber else { return nil }
      return $0.list(of: object, slot: slot)
    }
  }

  /// Lets the last prefetch go once `object`, one of its owners, is freed and no other owner
  /// that could read it is left (see ``PrefetchedRelations/ownerReleased(number:key:)``).
  func prefetchOwnerReleased(_ object: ModelObject) {
    guard let prefetched,
      prefetched.ownerReleased(number: Int(object._prefetchIndex), key: object._key)
    else { return }
    // Its related objects are freed once `prefetched` goes, after this assignment: each finds
    // no prefetch here.
    self.prefetched = nil
  }

  /// Records that the context's relationships changed: prefetched lists no longer hold.
  func relationshipsDidChange() {
    relationshipEpoch &+= 1
  }
}
