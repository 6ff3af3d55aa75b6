/// The indexes built for one frozen table version, kept by the table itself.
///
/// An index is built the first time a reader asks for it, then carried to every version of
/// the table published over this one (``carry(from:to:)``, run as the version is made): a
/// table's indexes are kept current with its saves, so a query after a save finds them built,
/// and no older version has to stay alive for the next one's indexes to be derived from it.
/// Shared by every session that reads the version.
final class IndexShelf: Sendable {
  private struct Key: Hashable {
    let definition: IndexDefinition

    /// Hashes the definition without its attribute name (see
    /// ``IndexDefinition/hashWithoutName(into:)``); `==` still compares every field.
    func hash(into hasher: inout Hasher) { definition.hashWithoutName(into: &hasher) }
  }

  private let entries: Locked<[Key: any BuiltIndex]>

  /// A shelf holding no index.
  init() { entries = Locked([:]) }

  /// A shelf holding `indexes`.
  private init(holding indexes: [Key: any BuiltIndex]) {
    entries = Locked(indexes)
  }

  /// The definitions of the indexes on the shelf.
  var definitions: [IndexDefinition] { entries.withLock { $0.keys.map(\.definition) } }

  /// The index of `definition`: the one on the shelf, else one `make` builds (outside the
  /// lock), which the shelf then keeps (or the one another reader put there meanwhile).
  ///
  /// - Complexity: O(1) when built; otherwise the cost of `make`.
  func index<Built: BuiltIndex>(_ definition: IndexDefinition, make: () -> Built) -> Built {
    let key = Key(definition: definition)
    if let found = entries.withLock({ $0[key] }) {
      // One definition of one table has one key type, so one built type.
      return unsafeDowncast(found as AnyObject, to: Built.self)
    }
    let built = make()
    let kept = entries.withLock { entries -> any BuiltIndex in
      if let found = entries[key] { return found }
      entries[key] = built
      return built
    }
    return unsafeDowncast(kept as AnyObject, to: Built.self)
  }

  /// The index of `definition` on the shelf, if a reader built it or a save carried it here.
  ///
  /// - Complexity: O(1).
  func built(_ definition: IndexDefinition) -> (any BuiltIndex)? {
    let key = Key(definition: definition)
    return entries.withLock { $0[key] }
  }

  /// Puts on the shelf of `new` (a version of the table published over `old`) each index
  /// `old`'s shelf holds, carried to `new`.
  ///
  /// - Complexity: O(indexes × rows written between the versions), see
  ///   ``IndexCarrier/carry(_:from:to:)``.
  static func carry(from old: Table, to new: Table) {
    guard old !== new, let source = old.indexShelf else { return }
    // A copy of the dictionary shares its storage: reading it outside the lock copies nothing.
    let built = source.entries.withLock { $0 }
    guard !built.isEmpty else { return }
    var carried = [Key: any BuiltIndex](minimumCapacity: built.count)
    for (key, index) in built {
      if let next = IndexCarrier.carry(index, from: old, to: new) { carried[key] = next }
    }
    guard !carried.isEmpty else { return }
    // The new table has no shelf yet (it is being published): the carried indexes become its
    // shelf as they are. Should a reader have made one first, they join it.
    let made = IndexShelf(holding: carried)
    let shelf = new.makeIndexShelf { made }
    guard shelf !== made else { return }
    shelf.entries.withLock { entries in
      for (key, index) in carried where entries[key] == nil { entries[key] = index }
    }
  }
}
