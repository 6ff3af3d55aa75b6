/// The version of a ``VersionedSchema``: major, minor and patch numbers, ordered as numbers.
public struct SchemaVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The major number.
  public var major: Int
  /// The minor number.
  public var minor: Int
  /// The patch number.
  public var patch: Int

  /// A version `major.minor.patch`.
  public init(_ major: Int, _ minor: Int, _ patch: Int) {
    self.major = major
    self.minor = minor
    self.patch = patch
  }

  /// Orders by major, then minor, then patch number.
  public static func < (lhs: SchemaVersion, rhs: SchemaVersion) -> Bool {
    (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
  }

  /// `major.minor.patch`.
  public var description: String { "\(major).\(minor).\(patch)" }
}
