/// The typed parts of an ordered view, seen without their key type (the merge of several
/// views checks that each is an ``OrderedViewState`` of its own key type).
class OrderedViewParts {}

/// The base, removed rows and added entries of an ordered view with key type `Key`.
final class OrderedViewState<Key: IndexKey>: OrderedViewParts {
  let base: OrderedIndex<Key>
  let removed: Set<Int32>
  let added: OrderedIndex<Key>

  init(base: OrderedIndex<Key>, removed: Set<Int32>, added: OrderedIndex<Key>) {
    self.base = base
    self.removed = removed
    self.added = added
  }

  /// A cursor merging the rows of `parts` within `ranges`; `nil` when a part has another key
  /// type or a range does not convert to `Key`.
  ///
  /// Called from code specialized for `Key` (the view's closure), it makes closures that call
  /// the specialized merge: a method of a generic class called through a protocol or a
  /// class's table would run unspecialized.
  static func mergeCursor(
    _ parts: [OrderedViewParts], ranges: [IndexValueRange], ascending: Bool
  ) -> MergeCursor? {
    var walks: [OrderedMerge<Key>.Walk] = []
    var keyRanges: [KeyRange<Key>] = []
    walks.reserveCapacity(parts.count)
    keyRanges.reserveCapacity(parts.count)
    let type = ObjectIdentifier(Self.self)
    for (table, part) in parts.enumerated() {
      // The exact dynamic type, checked by identity: a cheaper test than a cast.
      guard ObjectIdentifier(Swift.type(of: part)) == type, table < ranges.count,
        let range = ranges[table].keyRange(Key.self)
      else { return nil }
      let state = unsafeDowncast(part, to: OrderedViewState<Key>.self)
      walks.append(
        OrderedMerge.Walk(
          state.base, table: table, ascending: ascending, skipping: state.removed))
      keyRanges.append(range)
      if state.added.count > 0 {
        walks.append(
          OrderedMerge.Walk(state.added, table: table, ascending: ascending, skipping: []))
        keyRanges.append(range)
      }
    }
    let merge = OrderedMerge(walks: walks, ranges: keyRanges, ascending: ascending)
    return MergeCursor(
      next: { merge.next() }, fill: { merge.fill(&$0, upTo: $1) },
      restart: { merge.restart($0) })
  }
}
