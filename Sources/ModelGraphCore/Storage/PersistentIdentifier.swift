/// The identity of a persisted object: stable for the object's whole life, and never reused.
///
/// An identifier names the object's concrete class and its row with the row's generation; a
/// row freed by a saved deletion is reused with a new generation, so an old identifier never
/// resolves to a new object. Identifiers survive snapshots unchanged.
public struct PersistentIdentifier: Sendable, Hashable, Codable, Comparable,
  CustomStringConvertible
{
  /// The name of the object's concrete entity (its class).
  public let entityName: String
  /// The object's row in its entity's table.
  public let row: UInt32
  /// The row's generation when the object was created.
  public let generation: UInt32

  /// Makes an identifier.
  public init(entityName: String, row: UInt32, generation: UInt32) {
    self.entityName = entityName
    self.row = row
    self.generation = generation
  }

  /// Orders by entity name, then row, then generation.
  public static func < (lhs: PersistentIdentifier, rhs: PersistentIdentifier) -> Bool {
    (lhs.entityName, lhs.row, lhs.generation) < (rhs.entityName, rhs.row, rhs.generation)
  }

  /// `Entity/row.generation`.
  public var description: String { "\(entityName)/\(row).\(generation)" }
}
