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
    var entry = entries.removeValue(forKey: key) ?? Entry(scope: scope)
    if entry.scope != scope { entry = Entry(scope: scope) }
    var views: [any TableIndex] = []
    views.reserveCapacity(scope.count)
    for (position, member) in scope.enumerated() {
      let serial = tables[member].serial
      if entry.serials[position] == serial, let view = entry.views[position] {
        views.append(view)
        continue
      }
      guard let view = find(position) else { return nil }
      entry.serials[position] = serial
      entry.views[position] = view
      views.append(view)
    }
    entries[key] = entry
    return views
  }

  /// Forgets every view whose table is not the one `tables` holds for its class (the session
  /// moved to the version of `tables`).
  ///
  /// - Complexity: O(views kept).
  func keepOnly(_ tables: [Table]) {
    guard !entries.isEmpty else { return }
    for key in Array(entries.keys) {
      var entry = entries.removeValue(forKey: key)!
      for (position, member) in entry.scope.enumerated()
      where member >= tables.count || tables[member].serial != entry.serials[position] {
        entry.serials[position] = 0
        entry.views[position] = nil
      }
      entries[key] = entry
    }
  }
}
