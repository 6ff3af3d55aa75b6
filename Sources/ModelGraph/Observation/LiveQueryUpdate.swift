public import ModelGraphCore

/// The results of a live query after a save changed them, and how they differ from the
/// results it delivered before.
public struct LiveQueryUpdate: Sendable, Hashable {
  /// One object that kept its place in the results but moved to another index.
  public struct Move: Sendable, Hashable {
    /// Its index in the previous results.
    public let from: Int
    /// Its index in these results.
    public let to: Int
  }

  /// The store version the results were fetched from.
  public let version: UInt64
  /// The results, in the descriptor's order.
  public let identifiers: [PersistentIdentifier]
  /// Indexes in ``identifiers`` of objects that were not in the previous results (all of them
  /// in the first update).
  public let insertedIndexes: [Int]
  /// Indexes in the previous results of objects that are no longer in the results.
  public let removedIndexes: [Int]
  /// Objects in both, at another position.
  public let moves: [Move]

  /// The update from `previous` results to `identifiers`.
  init(version: UInt64, identifiers: [PersistentIdentifier], previous: [PersistentIdentifier]) {
    self.version = version
    self.identifiers = identifiers
    var inserted: [Int] = []
    var removed: [Int] = []
    var moves: [Move] = []
    for change in identifiers.difference(from: previous).inferringMoves() {
      switch change {
      case .insert(let offset, _, let associated):
        if let associated {
          moves.append(Move(from: associated, to: offset))
        } else {
          inserted.append(offset)
        }
      case .remove(let offset, _, let associated):
        if associated == nil { removed.append(offset) }
      }
    }
    insertedIndexes = inserted
    removedIndexes = removed
    self.moves = moves
  }
}
