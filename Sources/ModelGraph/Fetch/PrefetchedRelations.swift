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
  }

  /// Sets the list at `place` (`owner * stride + position`) while the prefetch is being built.
  func setList(_ list: [ModelObject], at place: Int) {
    precondition(place >= 0 && place < count, "a list place within the prefetch")
    (lists + place).pointee = list
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
  /// - Complexity: O(1): a few comparisons and an array read.
  func prefetchedRelated(_ object: ModelObject, slot: Int) -> [ModelObject]? {
    guard let prefetched, prefetched.epoch == relationshipEpoch,
      prefetched.version == session.baseNumber
    else { return nil }
    return prefetched.list(of: object, slot: slot)
  }

  /// Records that the context's relationships changed: prefetched lists no longer hold.
  func relationshipsDidChange() {
    relationshipEpoch &+= 1
  }
}
