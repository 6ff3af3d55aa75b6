/// The indexes built for frozen table versions, shared by every context of a store.
///
/// An index is built once for a committed version of a table, then carried forward: the index
/// of a newer version is derived from the newest one built, by the entries the two versions
/// disagree on (``IndexDelta``). An index is immutable once built. The registry keeps the two
/// newest versions' indexes per table and index, and forgets a store's when it is released.
final class IndexRegistry: Sendable {
  /// The registry of the process.
  static let shared = IndexRegistry()

  private struct Slot: Hashable {
    let store: ObjectIdentifier
    let entity: Int
    let definition: IndexDefinition

    /// Hashes every field but the definition's attribute name (see
    /// ``IndexDefinition/hashWithoutName(into:)``); `==` still compares every field.
    func hash(into hasher: inout Hasher) {
      hasher.combine(store)
      hasher.combine(entity)
      definition.hashWithoutName(into: &hasher)
    }
  }

  private struct Entry: @unchecked Sendable {
    // @unchecked Sendable: the table is frozen and the index immutable.
    weak var store: Store?
    let table: Table
    let index: AnyObject
  }

  private let entries = Locked<[Slot: [Entry]]>([:])

  /// The index of `definition` for the frozen `table` of `store`, made by `make` from the
  /// newest index built for another version of the table (or from nothing) when there is none
  /// for this version yet.
  ///
  /// - Complexity: O(1) when built; otherwise the cost of `make`.
  func index<Built: AnyObject>(
    store: Store, table: Table, definition: IndexDefinition,
    make: ((table: Table, index: Built)?) -> Built
  ) -> Built {
    let slot = Slot(
      store: ObjectIdentifier(store), entity: table.entity.index, definition: definition)
    let (hit, source) = entries.withLock { entries -> (Built?, (table: Table, index: Built)?) in
      guard let list = entries[slot] else { return (nil, nil) }
      var newest: (table: Table, index: Built)?
      for entry in list where entry.store === store {
        guard let index = entry.index as? Built else { continue }
        if entry.table === table { return (index, nil) }
        newest = (entry.table, index)
      }
      return (nil, newest)
    }
    if let hit { return hit }
    let built = make(source)
    // What the registry lets go (the index and table of an older version, the entries of a
    // released store) is freed after the lock is released, not while other readers wait.
    let dropped = entries.withLock { entries -> [Entry] in
      var dropped: [Entry] = []
      if source == nil {
        let released = entries.filter { !$0.value.contains { $0.store != nil } }
        for (key, list) in released {
          dropped += list
          entries[key] = nil
        }
      }
      Self.keep(
        Entry(store: store, table: table, index: built), in: &entries[slot, default: []],
        dropping: &dropped)
      return dropped
    }
    withExtendedLifetime(dropped) {}
    return built
  }

  /// Makes `list` (one slot's entries, oldest first) hold `entry` as its newest, with at most
  /// one older entry of the same store for another table version; the rest go to `dropped`.
  /// Works in place: a slot's list keeps its storage from save to save.
  private static func keep(_ entry: Entry, in list: inout [Entry], dropping dropped: inout [Entry])
  {
    var kept = 0
    for index in list.indices {
      if list[index].store === entry.store && list[index].table !== entry.table {
        list.swapAt(kept, index)
        kept += 1
      }
    }
    // Entries past `kept` (another store's that is gone, or this very table's) go, and all
    // but the newest kept one.
    let first = max(0, kept - 1)
    dropped += list[..<first]
    dropped += list[kept...]
    list.removeSubrange(kept...)
    list.removeSubrange(..<first)
    list.append(entry)
  }
}
