import ModelGraphCore

/// The related objects the last prefetching fetch resolved, per object and relationship, so
/// that reading a prefetched relationship looks nothing up again.
///
/// The lists hold for the context's view of relationships they were resolved on: the
/// session's base version and ``ModelContext/relationshipEpoch``, which every relationship
/// write, deletion and rollback in the context advances. A save or a refresh moves the base
/// version. Once either differs, reads go back to the tables.
final class PrefetchedRelations {
  /// An object's relationship, by slot.
  struct Key: Hashable {
    let object: ObjectKey
    let slot: Int
  }

  /// The session's base version the lists were resolved on.
  let version: UInt64
  /// ``ModelContext/relationshipEpoch`` when the lists were resolved.
  let epoch: UInt64
  /// The related objects of each prefetched relationship, in order; they also keep the objects
  /// alive, so the context keeps their handles.
  var lists: [Key: [ModelObject]] = [:]

  init(version: UInt64, epoch: UInt64) {
    self.version = version
    self.epoch = epoch
  }
}

extension ModelContext {
  /// The objects relationship `slot` of the object `key` holds, as the last prefetching fetch
  /// resolved them, while that resolution still holds; otherwise `nil`.
  ///
  /// - Complexity: O(1): two comparisons and a hash lookup.
  func prefetchedRelated(_ key: ObjectKey, slot: Int) -> [ModelObject]? {
    guard let prefetched, prefetched.epoch == relationshipEpoch,
      prefetched.version == session.base.number
    else { return nil }
    return prefetched.lists[PrefetchedRelations.Key(object: key, slot: slot)]
  }

  /// Records that the context's relationships changed: prefetched lists no longer hold.
  func relationshipsDidChange() {
    relationshipEpoch &+= 1
  }
}
