import ModelGraphCore

/// The related objects the last prefetching fetch resolved, per owner and relationship, so
/// that reading a prefetched relationship looks nothing up again.
///
/// Owners are numbered in the order the fetch returned them; each owner keeps its number in
/// ``ModelObject/_prefetchIndex``, and the lists of owner `i` sit at `i * stride + slot` (the
/// owner's relationship slot). A number is used only after ``owners`` confirms it names the
/// object, so a number left from an earlier prefetch is harmless.
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
  var owners: [ObjectKey] = []
  /// The number of list places per owner: one more than the highest slot resolved.
  let stride: Int
  /// The related objects of each prefetched relationship, in order (`nil`: not prefetched);
  /// they also keep the objects alive, so the context keeps their handles.
  var lists: [[ModelObject]?]

  init(version: UInt64, epoch: UInt64, owners: [ObjectKey], stride: Int) {
    self.version = version
    self.epoch = epoch
    self.owners = owners
    self.stride = stride
    lists = Array(repeating: nil, count: owners.count * stride)
  }

  /// The list of relationship `slot` of `object`, if this prefetch resolved it.
  ///
  /// - Complexity: O(1).
  func list(of object: ModelObject, slot: Int) -> [ModelObject]? {
    let index = Int(object._prefetchIndex)
    guard index >= 0, index < owners.count, owners[index] == object._key, slot < stride else {
      return nil
    }
    return lists[index &* stride &+ slot]
  }
}

extension ModelContext {
  /// The objects relationship `slot` of `object` holds, as the last prefetching fetch resolved
  /// them, while that resolution still holds; otherwise `nil`.
  ///
  /// - Complexity: O(1): a few comparisons and an array read.
  func prefetchedRelated(_ object: ModelObject, slot: Int) -> [ModelObject]? {
    guard let prefetched, prefetched.epoch == relationshipEpoch,
      prefetched.version == session.base.number
    else { return nil }
    return prefetched.list(of: object, slot: slot)
  }

  /// Records that the context's relationships changed: prefetched lists no longer hold.
  func relationshipsDidChange() {
    relationshipEpoch &+= 1
  }
}
