public import ModelGraphCore

/// Where a container keeps its data: only in memory, or also in a snapshot file and its journal.
public struct ModelConfiguration: Sendable, Hashable {
  /// The snapshot file, or `nil` for a store that lives only in memory.
  ///
  /// Saves append to a journal beside it, at the same path with `-journal` appended.
  public var url: URL?
  /// Whether the store lives only in memory (no file is read or written).
  public var isStoredInMemoryOnly: Bool
  /// Whether contexts may save; `false` opens the file read-only, without taking its lock: the
  /// container sees the snapshot and journal as of the moment it opened, and a save throws
  /// ``JournalError`` with code ``JournalError/Code/readOnly``.
  public var allowsSave: Bool
  /// When a save's journal record reaches the disk; ``Durability/full`` by default.
  public var durability: Durability
  /// The journal size in bytes past which a checkpoint runs in the background (writes a new
  /// snapshot and starts a new journal); 64 MiB by default.
  public var checkpointThreshold: Int

  /// A configuration for a store in memory only, or (by default) backed by a snapshot file.
  ///
  /// - Parameter isStoredInMemoryOnly: `true` for a store that is never written to disk.
  public init(isStoredInMemoryOnly: Bool = false) {
    self.url = nil
    self.isStoredInMemoryOnly = isStoredInMemoryOnly
    allowsSave = true
    durability = .full
    checkpointThreshold = 64 << 20
  }

  /// A configuration backed by the snapshot file at `url` and its journal.
  ///
  /// - Parameters:
  ///   - url: The snapshot file; its journal is beside it, named with `-journal` added.
  ///   - allowsSave: `false` to open the file read-only.
  ///   - durability: When a save's record reaches the disk.
  ///   - checkpointThreshold: The journal size that starts a background checkpoint.
  public init(
    url: URL, allowsSave: Bool = true, durability: Durability = .full,
    checkpointThreshold: Int = 64 << 20
  ) {
    self.url = url
    self.isStoredInMemoryOnly = false
    self.allowsSave = allowsSave
    self.durability = durability
    self.checkpointThreshold = checkpointThreshold
  }
}
