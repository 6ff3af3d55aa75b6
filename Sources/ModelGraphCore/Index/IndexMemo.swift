/// The indexes one session has already looked up for the committed table versions it reads,
/// so a repeated query finds them without the lock of the table's ``IndexShelf``.
///
/// Not `Sendable`: it belongs to its session. An entry is used only for the very table
/// version it was found for. When the session moves to another version, it keeps the entries
/// of the tables that version still holds (a save leaves the tables it did not write as they
/// were) and forgets the others, so the memo never keeps an old version alive.
final class IndexMemo {
  private struct Key: Hashable {
    let entity: Int
    let definition: IndexDefinition

    /// Hashes the entity and the definition without its attribute name (see
    /// ``IndexDefinition/hashWithoutName(into:)``); `==` still compares every field.
    func hash(into hasher: inout Hasher) {
      hasher.combine(entity)
      definition.hashWithoutName(into: &hasher)
    }
  }

  /// The entries by index; a forgotten one stays as `nil` (see ``keepOnly(_:)``).
  private var entries: [Key: (table: Table, built: AnyObject)?] = [:]
  /// The store whose versions the session reads.
  private unowned let store: Store

  /// An empty memo for a session of `store`.
  init(store: Store) {
    self.store = store
  }

  /// Carries the indexes just built for `table` (a frozen table of a version of the store) to
  /// the versions of the table committed since, which were published without them.
  func didBuild(for table: Table) {
    store.carryIndexes(builtFor: table)
  }

  /// The index built for `table` (a frozen committed version), from the memo or from `find`.
  ///
  /// - Complexity: O(1) after the first lookup of the index for this table version.
  func built<Built: AnyObject>(
    for table: Table, definition: IndexDefinition, find: () -> Built
  ) -> Built {
    let key = Key(entity: table.entity.index, definition: definition)
    if let entry = entries[key] ?? nil, entry.table === table {
      // One table version and one definition have one key type, so one built type: no
      // dynamic cast (a generic class's, which looks its metadata up) on every query.
      assert(entry.built is Built, "an index memo entry of another type")
      return unsafeDowncast(entry.built, to: Built.self)
    }
    let built = find()
    entries[key] = (table, built)
    return built
  }

  /// Forgets every entry whose table is not the one `tables` holds for its entity (the
  /// session moved to the version of `tables`).
  ///
  /// The dictionary keeps its capacity: a session that fetches after every save refills the
  /// same entries, which a filtered copy made it grow into again each time.
  /// - Complexity: O(entries).
  func keepOnly(_ tables: [Table]) {
    guard !entries.isEmpty else { return }
    // Cleared in place, by index (a native dictionary's index holds no reference to its
    // storage, so the writes copy nothing): no list of stale keys and no removal (a hash of
    // the key each) per save. The keys stay, at most one per entity and definition read.
    var index = entries.startIndex
    while index != entries.endIndex {
      if let entry = entries.values[index] {
        let entity = entries.keys[index].entity
        if entity >= tables.count || tables[entity] !== entry.table {
          entries.values[index] = nil
        }
      }
      entries.formIndex(after: &index)
    }
  }
}
