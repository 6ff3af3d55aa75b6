/// An index of one attribute, kept per table for every class of the hierarchy that declares it.
///
/// An ordered index answers equality, ranges, `IN` lists and prefixes, and yields rows in the
/// attribute's sort order; a hash index answers equality and `IN` lists. Both map a value to
/// rows of one table; a deep query reads the index of every table it visits.
public struct IndexDefinition: Sendable, Hashable, CustomStringConvertible {
  /// What an index can answer.
  public enum Kind: String, Sendable, Hashable {
    /// Sorted by the attribute: equality, ranges, prefixes and sort order.
    case ordered
    /// Hashed by the attribute: equality and `IN` lists.
    case hash
  }

  /// What the index can answer.
  public var kind: Kind
  /// The attribute indexed.
  public var attribute: String
  /// Whether each value belongs to at most one object (recorded for the planner; the rule is
  /// enforced by the attribute's `.unique` option on save).
  public var isUnique: Bool

  /// An index of `kind` on `attribute`.
  public init(_ kind: Kind, on attribute: String, isUnique: Bool = false) {
    self.kind = kind
    self.attribute = attribute
    self.isUnique = isUnique
  }

  /// Feeds the kind, the uniqueness and the attribute name's length to `hasher`, not the name's
  /// bytes: for keys that also name an entity, whose few indexes rarely share a name length, so
  /// a lookup per query hashes no string (equality still compares the names).
  func hashWithoutName(into hasher: inout Hasher) {
    hasher.combine(kind == .hash)
    hasher.combine(isUnique)
    hasher.combine(attribute.utf8.count)
  }

  /// `ordered(startDate)`, `hash(company, unique)`.
  public var description: String {
    "\(kind.rawValue)(\(attribute)\(isUnique ? ", unique" : ""))"
  }
}
