/// The generation numbers a snapshot file carries, which tie it to its journal.
///
/// Every checkpoint writes a snapshot with a new random generation and remembers the one it
/// replaces, so a journal left beside a newer snapshot by a crash is recognised as the previous
/// generation's, and a journal of any other snapshot is refused.
public struct SnapshotLineage: Sendable, Hashable {
  /// This snapshot's generation; 0 for a file written without a journal (or format version 1).
  public var generation: UInt64
  /// The generation of the snapshot this one replaced, or 0.
  public var previous: UInt64

  /// Generation numbers; zero when omitted.
  public init(generation: UInt64 = 0, previous: UInt64 = 0) {
    self.generation = generation
    self.previous = previous
  }

  /// A new lineage after `previous`, with a random non-zero generation.
  public static func next(after previous: UInt64) -> SnapshotLineage {
    var generation: UInt64 = 0
    while generation == 0 || generation == previous {
      generation = UInt64.random(in: 1...UInt64.max)
    }
    return SnapshotLineage(generation: generation, previous: previous)
  }
}
