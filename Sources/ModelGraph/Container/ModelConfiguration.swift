/// Where a container keeps its data: only in memory, or also in a snapshot file.
public struct ModelConfiguration: Sendable, Hashable {
  /// The snapshot file, or `nil` for a store that lives only in memory.
  public var url: URL?
  /// Whether the store lives only in memory (no file is read or written).
  public var isStoredInMemoryOnly: Bool

  /// A configuration for a store in memory only, or (by default) backed by a snapshot file.
  ///
  /// - Parameter isStoredInMemoryOnly: `true` for a store that is never written to disk.
  public init(isStoredInMemoryOnly: Bool = false) {
    self.url = nil
    self.isStoredInMemoryOnly = isStoredInMemoryOnly
  }

  /// A configuration backed by the snapshot file at `url`.
  public init(url: URL) {
    self.url = url
    self.isStoredInMemoryOnly = false
  }
}
