import Foundation

/// The indexes built for one frozen table version, kept by the table itself.
///
/// An index is built the first time a reader asks for it, then carried to every version of
/// the table published over this one (``carry(from:to:)``, run as the version is made): a
/// table's indexes are kept current with its saves, so a query after a save finds them built,
/// and no older version has to stay alive for the next one's indexes to be derived from it.
/// Shared by every session that reads the version.
final class IndexShelf: Sendable {
  /// One index on the shelf, with its definition.
  typealias Shelved = (definition: IndexDefinition, index: any BuiltIndex)

  private struct Contents {
    /// The indexes, in the order they were put on the shelf; a table has a handful, found by
    /// a scan that hashes nothing (a dictionary cost every save an allocation and a hash of
    /// each definition per table it published, and again per lookup).
    var entries: [Shelved]
    /// The indexes a reader is building, which other readers wait for.
    var building: [(definition: IndexDefinition, pending: PendingIndex)] = []
  }

  private let contents: Locked<Contents>

  /// A shelf holding no index.
  init() { contents = Locked(Contents(entries: [])) }

  /// A shelf holding `indexes` (no two of one definition).
  private init(holding indexes: [Shelved]) {
    contents = Locked(Contents(entries: indexes))
  }

  /// The definitions of the indexes on the shelf.
  var definitions: [IndexDefinition] { contents.withLock { $0.entries.map(\.definition) } }

  /// The index of `definition` in `entries`, if there is one.
  ///
  /// - Complexity: O(entries), comparing the attribute names only of definitions of the same
  ///   kind and uniqueness.
  private static func find(_ definition: IndexDefinition, in entries: [Shelved])
    -> (any BuiltIndex)?
  {
    for entry in entries where entry.definition == definition { return entry.index }
    return nil
  }

  /// The index of `definition`: the one on the shelf, else one `make` builds (outside the
  /// lock), which the shelf then keeps (or the one another reader put there meanwhile).
  ///
  /// Readers that ask while another builds it wait for that build instead of building the
  /// same index again (several sessions that start on one version all read it at once).
  /// - Parameter built: Called, after the shelf keeps it, when this call built the index.
  /// - Complexity: O(indexes on the shelf) when built; otherwise the cost of `make`.
  func index<Built: BuiltIndex>(
    _ definition: IndexDefinition, make: () -> Built, built: (Built) -> Void = { _ in }
  ) -> Built {
    let step = contents.withLock { contents -> IndexLookup in
      if let found = Self.find(definition, in: contents.entries) { return .found(found) }
      if let pending = contents.building.first(where: { $0.definition == definition }) {
        return .wait(pending.pending)
      }
      let pending = PendingIndex()
      contents.building.append((definition, pending))
      return .build(pending)
    }
    let pending: PendingIndex
    switch step {
    // One definition of one table has one key type, so one built type.
    case .found(let found): return unsafeDowncast(found as AnyObject, to: Built.self)
    case .wait(let other): return unsafeDowncast(other.wait() as AnyObject, to: Built.self)
    case .build(let mine): pending = mine
    }
    let made = make()
    let kept = contents.withLock { contents -> any BuiltIndex in
      contents.building.removeAll { $0.definition == definition }
      if let found = Self.find(definition, in: contents.entries) { return found }
      contents.entries.append((definition, made))
      return made
    }
    pending.finish(kept)
    let result = unsafeDowncast(kept as AnyObject, to: Built.self)
    if result === made { built(made) }
    return result
  }

  /// The index of `definition` on the shelf, if a reader built it or a save carried it here.
  ///
  /// - Complexity: O(indexes on the shelf).
  func built(_ definition: IndexDefinition) -> (any BuiltIndex)? {
    contents.withLock { Self.find(definition, in: $0.entries) }
  }

  /// Puts on the shelf of `new` (a version of the table published over `old`) each index
  /// `old`'s shelf holds, carried to `new`.
  ///
  /// - Complexity: O(indexes × rows written between the versions), see
  ///   ``IndexCarrier/carry(_:from:to:)``.
  /// An index `new`'s shelf holds already is not carried again.
  static func carry(from old: Table, to new: Table) {
    guard old !== new, let source = old.indexShelf else { return }
    // A copy of the list shares its storage: reading it outside the lock copies nothing.
    let built = source.contents.withLock { $0.entries }
    guard !built.isEmpty else { return }
    // A table being published has no shelf yet; one that has (a later version an index built
    // since is carried to, see ``Store/carryIndexes(builtFor:)``) keeps what it holds.
    let present = new.indexShelf?.contents.withLock { $0.entries } ?? []
    var carried: [Shelved] = []
    carried.reserveCapacity(built.count)
    for (definition, index) in built where find(definition, in: present) == nil {
      if let next = IndexCarrier.carry(index, from: old, to: new) {
        carried.append((definition, next))
      }
    }
    guard !carried.isEmpty else { return }
    // The new table has no shelf yet (it is being published): the carried indexes become its
    // shelf as they are. Should a reader have made one first, they join it.
    let made = IndexShelf(holding: carried)
    let shelf = new.makeIndexShelf { made }
    guard shelf !== made else { return }
    shelf.contents.withLock { contents in
      for entry in carried where find(entry.definition, in: contents.entries) == nil {
        contents.entries.append(entry)
      }
    }
  }
}

/// What a reader asking a shelf for an index does.
private enum IndexLookup {
  /// Takes the index on the shelf.
  case found(any BuiltIndex)
  /// Waits for the reader building it.
  case wait(PendingIndex)
  /// Builds it, and hands it to the readers that wait meanwhile.
  case build(PendingIndex)
}

/// An index one reader is building for a shelf, which the other readers that ask for it
/// meanwhile wait for.
private final class PendingIndex: @unchecked Sendable {
  // @unchecked Sendable: `index` is read and written only while `condition` is locked.
  private let condition = NSCondition()
  private var index: (any BuiltIndex)?

  /// Hands the index to the waiting readers.
  func finish(_ built: any BuiltIndex) {
    condition.lock()
    index = built
    condition.broadcast()
    condition.unlock()
  }

  /// The index, once the reader building it has finished.
  func wait() -> any BuiltIndex {
    condition.lock()
    defer { condition.unlock() }
    while index == nil { condition.wait() }
    return index!
  }
}
