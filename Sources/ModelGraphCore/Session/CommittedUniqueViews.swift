/// The committed versions' index views that a session's unique checks found, per unique
/// attribute of a hierarchy, each kept with the ``Table/serial`` of the table it was found for.
///
/// A small save's unique check reads the view of every class of the attribute's hierarchy; a
/// save usually writes one of those classes, so the next check takes the others' views from
/// here instead of looking them up again. A view serves only the very table version it was
/// found for, and a move to another version forgets the views of the tables it replaced
/// (``keepOnly(_:)``), so no index of an older version stays alive. Not `Sendable`: it belongs
/// to its session.
final class CommittedUniqueViews {
  private struct Key: Hashable {
    let entity: Int
    let slot: Int
  }

  /// The views of one attribute, by position in its scope.
  private struct Entry {
    /// The scope's classes.
    let scope: [Int]
    /// The serial of the table each view was found for; 0 where none is kept.
    var serials: [UInt64]
    var views: [(any TableIndex)?]

    init(scope: [Int]) {
      self.scope = scope
      serials = Array(repeating: 0, count: scope.count)
      views = Array(repeating: nil, count: scope.count)
    }
  }

  private var entries: [Key: Entry] = [:]

  /// The views of attribute `slot` for the classes of `scope` (a hierarchy, its root first),
  /// whose committed tables `tables` holds by entity: the ones found before for the same
  /// table versions, and those `find` finds (by position in the scope) for the others.
  ///
  /// - Returns: `nil` when `find` finds none for a class.
  /// - Complexity: O(scope), plus `find` for each table no view is kept for.
  func views(
    slot: Int, scope: [Int], tables: [Table], find: (_ position: Int) -> (any TableIndex)?
  ) -> [any TableIndex]? {
    let key = Key(entity: scope[0], slot: slot)
    // The entry is updated in place through its index (no removal and insertion, each a hash
    // of the key, per check).
    var index = entries.index(forKey: key)
    if index == nil || entries.values[index!].scope != scope {
      entries[key] = Entry(scope: scope)
      index = entries.index(forKey: key)
    }
    let entry = index!
    var views: [any TableIndex] = []
    views.reserveCapacity(scope.count)
    for (position, member) in scope.enumerated() {
      let serial = tables[member].serial
      if entries.values[entry].serials[position] == serial,
        let view = entries.values[entry].views[position]
      {
        views.append(view)
        continue
      }
      guard let view = find(position) else { return nil }
      entries.values[entry].serials[position] = serial
      entries.values[entry].views[position] = view
      views.append(view)
    }
    return views
  }

  /// Forgets every view whose table is not the one `tables` holds for its class (the session
  /// moved to the version of `tables`).
  ///
  /// - Complexity: O(views kept).
  func keepOnly(_ tables: [Table]) {
    guard !entries.isEmpty else { return }
    // In place, by index (a native dictionary's index holds no reference to its storage, so
    // the writes below copy nothing): no list of keys, no removal and insertion per entry.
    var index = entries.startIndex
    while index != entries.endIndex {
      let count = entries.values[index].scope.count
      for position in 0..<count {
        let member = entries.values[index].scope[position]
        let serial = entries.values[index].serials[position]
        guard serial != 0, member >= tables.count || tables[member].serial != serial else {
          continue
        }
        entries.values[index].serials[position] = 0
        entries.values[index].views[position] = nil
      }
      entries.formIndex(after: &index)
    }
  }
}
